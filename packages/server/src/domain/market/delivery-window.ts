/** The seller's delivery time: the offer must be sent within 12 hours (docs/design.md section 6). */
export const DELIVERY_WINDOW_MS = 12 * 3600 * 1000;
