import type {
  EVENT_STREAM_PATH,
  STREAM_CLOSE_CODES,
  StreamChannel,
  StreamClientMessage,
  StreamServerMessage,
} from "@skinmarket/contract";
import { announce, liveEventOf } from "./live.ts";

/**
 * The event stream behind live updates (docs/design/website.md#live-updates-from-the-event-stream). While a session is signed in,
 * it is open on the server's own origin (the session cookie authenticates it): `account` always,
 * `book:<id>` while an item page shows goods <id> (`watchGoods`). Each event is announced to the
 * pages (`live.ts`); a lost stream is reopened with backoff and resumed after the last event seen.
 */

// The contract's values, restated so that the page does not bundle the contract's schemas; the
// types make them agree.
const STREAM_PATH: typeof EVENT_STREAM_PATH = "/api/market/developer/stream";
const NORMAL_CLOSE: (typeof STREAM_CLOSE_CODES)["normal"] = 1000;
const CREDENTIALS_ENDED: (typeof STREAM_CLOSE_CODES)["credentialsEnded"] = 4001;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

let wanted = false;
let socket: WebSocket | null = null;
let open = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryMs = RETRY_FIRST_MS;
/** The last event id seen: a reopened stream resumes after it. */
let lastEventId: string | undefined;
/** Goods ids shown by item pages, with how many pages show each. */
const watched = new Map<number, number>();

function send(message: StreamClientMessage): void {
  if (socket && open) socket.send(JSON.stringify(message));
}

function connect(): void {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}${STREAM_PATH}`);
  socket = ws;
  ws.onmessage = (message) => {
    if (socket !== ws || typeof message.data !== "string") return;
    const frame = JSON.parse(message.data) as StreamServerMessage;
    if (frame.type === "welcome") {
      open = true;
      retryMs = RETRY_FIRST_MS;
      lastEventId ??= frame.last_event_id;
      const books = [...watched.keys()].map((id): StreamChannel => `book:${id}`);
      send({ op: "subscribe", channels: ["account", ...books], after: lastEventId });
    } else if (frame.type === "event") {
      lastEventId = frame.event.id;
      const live = liveEventOf(frame.event);
      if (live) announce(live);
    }
  };
  ws.onclose = (close) => {
    if (socket !== ws) return;
    socket = null;
    open = false;
    // A signed-out or expired session is not retried; the next sign-in opens the stream again.
    if (!wanted || close.code === CREDENTIALS_ENDED) return;
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
}

/** Opens the stream for a signed-in session (again after a sign-out, without replaying). */
export function startLiveUpdates(): void {
  if (wanted) return;
  wanted = true;
  lastEventId = undefined;
  retryMs = RETRY_FIRST_MS;
  connect();
}

/** Closes the stream: on sign-out. */
export function stopLiveUpdates(): void {
  wanted = false;
  clearTimeout(retryTimer);
  const ws = socket;
  socket = null;
  open = false;
  ws?.close(NORMAL_CLOSE);
}

/** Follows one goods' listings and prices while an item page shows it; answers the cleanup. */
export function watchGoods(goodsId: number): () => void {
  const count = watched.get(goodsId) ?? 0;
  watched.set(goodsId, count + 1);
  if (count === 0) send({ op: "subscribe", channels: [`book:${goodsId}`] });
  return () => {
    const left = (watched.get(goodsId) ?? 1) - 1;
    if (left > 0) watched.set(goodsId, left);
    else {
      watched.delete(goodsId);
      send({ op: "unsubscribe", channels: [`book:${goodsId}`] });
    }
  };
}
