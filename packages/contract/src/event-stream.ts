import type { MarketplaceEvent } from "./events.ts";

/**
 * The event stream (docs/design/event-stream.md#authentication-on-the-upgrade-request): a WebSocket at this path, authenticated on the
 * upgrade request with an API token (`Authorization: Bearer`) or the website session.
 */
export const EVENT_STREAM_PATH = "/api/market/developer/stream";

/** At most this many channels per connection. */
export const MAX_STREAM_CHANNELS = 100;

/** How a stream ends: the WebSocket close codes the server sends. */
export const STREAM_CLOSE_CODES = {
  normal: 1000,
  shuttingDown: 1001,
  credentialsEnded: 4001,
  slowConsumer: 4008,
  /** The client sent more than the server holds for it while one of its messages was handled. */
  tooManyMessages: 4029,
} as const;

/**
 * `account` (the caller's events), `market` (every public event), `prices` (every
 * `market.price_changed`), `prices:<goods_id>` (one goods' price events), `book:<goods_id>` (one
 * goods' listing, buy-order book and price events).
 */
export type StreamChannel = "account" | "market" | "prices" | `prices:${number}` | `book:${number}`;

const CHANNEL_PATTERN = /^(?:account|market|prices|(?:prices|book):([1-9]\d{0,9}))$/;

/** Whether `text` names a channel; goods ids are positive 32-bit integers. */
export function isStreamChannel(text: string): text is StreamChannel {
  const match = CHANNEL_PATTERN.exec(text);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 2_147_483_647);
}

/** What a client sends, as JSON text frames. */
export type StreamClientMessage =
  | { op: "subscribe"; channels: StreamChannel[]; after?: string; types?: string[] }
  | { op: "unsubscribe"; channels: StreamChannel[] }
  | { op: "ping" };

/** What the server sends, as JSON text frames. */
export type StreamServerMessage =
  | { type: "welcome"; user_id: string; last_event_id: string; heartbeat_ms: number }
  | { type: "subscribed"; channels: StreamChannel[]; after: string }
  | { type: "unsubscribed"; channels: StreamChannel[] }
  | { type: "event"; channel: StreamChannel; event: MarketplaceEvent }
  | { type: "heartbeat"; last_event_id: string }
  | { type: "pong" }
  | { type: "error"; code: "invalid_argument"; message: string }
  | { type: "dropped"; reason: "slow_consumer" };
