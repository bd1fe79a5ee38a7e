import { unknownEventTypePattern, type MarketplaceEvent } from "@skinmarket/contract";
import { StreamConnection, type ConnectionEnd } from "./stream-connection.ts";

const STREAM_PATH = "/api/market/developer/stream";

/** The stream's close code for a token revoked or expired while connected. */
const CLOSE_TOKEN_REVOKED = 4001;
/** Until the welcome names the heartbeat, the server's default (15 s) is assumed. */
const DEFAULT_HEARTBEAT_MS = 15_000;
/** Refusals that another attempt cannot change: the token, its access, the URL or the request. */
const FINAL_REFUSALS = new Set([400, 401, 403, 404]);
const MAX_CHANNELS = 100;

export interface ReconnectOptions {
  /** Failed attempts in a row before giving up (default: never give up). */
  maxAttempts?: number;
  /** The first wait after a drop (default 500 ms), doubled at each failed attempt... */
  initialDelayMs?: number;
  /** ...up to this (default 30 s); each wait is drawn between half and all of its step. */
  maxDelayMs?: number;
}

export interface EventsOptions {
  /** `account` (default), `market`, `prices`, `prices:<goods_id>`, `book:<goods_id>`; at most 100. */
  channels?: readonly string[];
  /** Exact types, families (`trade.*`) or `*`; none: every type of the channels. */
  types?: readonly string[];
  /** Start after this event id (replayed from the log first); none: from now on. */
  after?: string;
  /** Aborting ends the iteration (normally, without an error). */
  signal?: AbortSignal;
  /** `false`: a dropped connection ends the iteration with a `MarketStreamError`. Default: reconnect. */
  reconnect?: boolean | ReconnectOptions;
  /** Called each time a connection is subscribed, with the id it resumes after. */
  onConnected?: (info: { url: string; after: string }) => void;
  /** Called when a connection is lost and another will be tried after `delayMs`. */
  onReconnecting?: (info: { reason: string; attempt: number; delayMs: number }) => void;
}

export interface StreamTarget {
  baseUrl: string;
  token?: string | undefined;
  headers?: Record<string, string> | undefined;
}

/** The stream ended in a way no reconnection can mend: revoked token, refused subscription, gave up. */
export class MarketStreamError extends Error {
  /** `token_revoked`, `connection_lost`, or the code of the server's error message (`invalid_argument`). */
  readonly code: string;
  /** The WebSocket close code, when the server closed the connection. */
  readonly closeCode: number | undefined;
  constructor(code: string, message: string, closeCode?: number) {
    super(message);
    this.name = "MarketStreamError";
    this.code = code;
    this.closeCode = closeCode;
  }
}

/**
 * The events of the stream, in id order. A dropped connection is opened again after a backoff and
 * resumes after the last event delivered: the server replays what was missed and the ids already
 * delivered are skipped, so nothing is lost and nothing comes twice.
 */
export async function* streamEvents(
  target: StreamTarget,
  options: EventsOptions = {},
): AsyncGenerator<MarketplaceEvent> {
  const channels = checkedChannels(options.channels ?? ["account"]);
  const types = checkedTypes(options.types);
  if (options.after !== undefined && !/^\d{1,18}$/.test(options.after)) {
    throw new TypeError(`after: ${JSON.stringify(options.after)} is not an event id (a decimal string)`);
  }
  const url = streamUrl(target.baseUrl);
  const headers: Record<string, string> = { ...target.headers };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  const policy = reconnectPolicy(options.reconnect);
  const { signal } = options;
  let cursor = options.after;
  let failures = 0;
  while (!signal?.aborted) {
    const connection = new StreamConnection(url, headers, 2 * DEFAULT_HEARTBEAT_MS);
    const stop = () => connection.stop();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const message of connection.messages()) {
        if (message.type === "welcome") {
          connection.setSilenceLimit(2 * (message.heartbeat_ms || DEFAULT_HEARTBEAT_MS));
          // Without `after`, the first subscription starts at the log's end as the welcome saw it;
          // every later one after the last event delivered.
          cursor ??= message.last_event_id;
          connection.send({ op: "subscribe", channels, after: cursor, ...(types ? { types } : {}) });
        } else if (message.type === "subscribed") {
          failures = 0;
          options.onConnected?.({ url, after: cursor ?? message.after });
        } else if (message.type === "event") {
          const event = message.event as unknown as MarketplaceEvent;
          if (cursor !== undefined && BigInt(event.id) <= BigInt(cursor)) continue;
          cursor = event.id;
          yield event;
        } else if (message.type === "error") {
          throw new MarketStreamError(
            message.code,
            `the stream refused the subscription: ${message.message}`,
          );
        }
      }
    } finally {
      signal?.removeEventListener("abort", stop);
      connection.stop();
    }
    const end = connection.end ?? { kind: "stopped" };
    if (end.kind === "stopped" || signal?.aborted) return;
    if (end.kind === "refused" && FINAL_REFUSALS.has(end.status)) throw end.error;
    if (end.kind === "closed" && end.code === CLOSE_TOKEN_REVOKED) {
      throw new MarketStreamError(
        "token_revoked",
        `the server ended the stream: the token was revoked or expired (${end.reason || "close code 4001"})`,
        end.code,
      );
    }
    failures++;
    if (failures > policy.maxAttempts) {
      throw new MarketStreamError(
        "connection_lost",
        `the stream at ${url} was lost: ${describeEnd(end)}`,
        end.kind === "closed" ? end.code : undefined,
      );
    }
    const delayMs = backoffMs(failures - 1, policy);
    options.onReconnecting?.({ reason: describeEnd(end), attempt: failures, delayMs });
    await pause(delayMs, signal);
  }
}

/** `http(s)://host` to `ws(s)://host/api/market/developer/stream`. */
export function streamUrl(baseUrl: string): string {
  const url = new URL(STREAM_PATH, baseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

function describeEnd(end: ConnectionEnd): string {
  switch (end.kind) {
    case "closed":
      return `closed by the server (code ${end.code}${end.reason ? `: ${end.reason}` : ""})`;
    case "refused":
      return `upgrade refused: ${end.error.message}`;
    case "failed":
      return end.error.message;
    case "stalled":
      return `nothing heard for ${end.silentMs} ms`;
    case "stopped":
      return "stopped";
  }
}

function checkedChannels(channels: readonly string[]): string[] {
  if (channels.length === 0 || channels.length > MAX_CHANNELS) {
    throw new TypeError(`channels: give between 1 and ${MAX_CHANNELS} channels`);
  }
  channels.forEach((channel, index) => {
    if (!/^(account|market|prices|(prices|book):\d{1,12})$/.test(channel)) {
      throw new TypeError(
        `channels[${index}]: ${JSON.stringify(channel)} is not account, market, prices, prices:<goods_id> or book:<goods_id>`,
      );
    }
  });
  return [...channels];
}

function checkedTypes(types: readonly string[] | undefined): string[] | undefined {
  if (!types || types.length === 0) return undefined;
  const unknown = unknownEventTypePattern(types);
  if (unknown !== undefined) throw new TypeError(`types: ${JSON.stringify(unknown)} is not an event type`);
  return [...types];
}

function reconnectPolicy(option: EventsOptions["reconnect"]): Required<ReconnectOptions> {
  const given = typeof option === "object" ? option : {};
  return {
    maxAttempts: option === false ? 0 : (given.maxAttempts ?? Number.POSITIVE_INFINITY),
    initialDelayMs: given.initialDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 30_000,
  };
}

/**
 * 500 ms, 1 s, 2 s... up to 30 s, each drawn between half and all of its step, so that clients
 * dropped together (a server restarting) do not all come back at the same moment.
 */
function backoffMs(attempt: number, policy: Required<ReconnectOptions>): number {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (Math.random() * step) / 2);
}

/** Waits `ms`, or less if the signal aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
