/** The seller's delivery time: the offer must be sent within 12 hours (docs/design/purchases-and-trades.md#offer-modes). */
export const DELIVERY_WINDOW_MS = 12 * 3600 * 1000;
