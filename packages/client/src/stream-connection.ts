import type { IncomingMessage } from "node:http";
import WebSocket from "ws";
import { MarketApiError } from "./errors.ts";

/** A message the server sends on the stream (docs/design/event-stream.md#the-stream). */
export type StreamMessage =
  | { type: "welcome"; user_id: string; last_event_id: string; heartbeat_ms: number }
  | { type: "subscribed"; channels: string[]; after: string }
  | { type: "event"; channel: string; event: { id: string } & Record<string, unknown> }
  | { type: "heartbeat"; last_event_id: string }
  | { type: "pong" }
  | { type: "error"; code: string; message: string }
  | { type: "dropped"; reason: string };

/** Why a connection ended; the first cause wins (a socket error is followed by its close). */
export type ConnectionEnd =
  | { kind: "closed"; code: number; reason: string }
  | { kind: "refused"; status: number; error: MarketApiError }
  | { kind: "failed"; error: Error }
  | { kind: "stalled"; silentMs: number }
  | { kind: "stopped" };

/**
 * One WebSocket connection to the stream: its messages in arrival order, queued until read, and
 * why it ended. A connection that hears nothing (no message, no ping) for `silenceLimitMs` is
 * taken for dead and cut: a broken route rarely closes the socket by itself.
 */
export class StreamConnection {
  #socket: WebSocket;
  #queue: StreamMessage[] = [];
  #wake: (() => void) | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #silenceLimitMs: number;
  end: ConnectionEnd | undefined;

  constructor(url: string, headers: Record<string, string>, silenceLimitMs: number) {
    this.#silenceLimitMs = silenceLimitMs;
    this.#socket = new WebSocket(url, { headers, handshakeTimeout: silenceLimitMs });
    this.#socket.on("message", (data, isBinary) => {
      this.#heard();
      const message = isBinary ? undefined : parseMessage(String(data));
      if (message) this.#push(message);
    });
    this.#socket.on("ping", () => this.#heard());
    this.#socket.on("open", () => this.#heard());
    this.#socket.on("close", (code, reason) =>
      this.#finish({ kind: "closed", code, reason: String(reason) }),
    );
    this.#socket.on("error", (error) => this.#finish({ kind: "failed", error }));
    this.#socket.on("unexpected-response", (request, response) => {
      void refusal(response).then((end) => {
        this.#finish(end);
        request.destroy();
      });
    });
    this.#heard();
  }

  /** The time without a message after which the connection is cut: twice the heartbeat. */
  setSilenceLimit(ms: number): void {
    this.#silenceLimitMs = ms;
    this.#heard();
  }

  send(message: unknown): void {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  /** Ends the connection from this side (normal closure); no more messages are read. */
  stop(): void {
    this.#finish({ kind: "stopped" });
    if (this.#socket.readyState === WebSocket.CONNECTING) this.#socket.terminate();
    else this.#socket.close(1000);
  }

  async *messages(): AsyncGenerator<StreamMessage> {
    for (;;) {
      const message = this.#queue.shift();
      if (message) {
        yield message;
        continue;
      }
      if (this.end) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #push(message: StreamMessage): void {
    if (this.end) return;
    this.#queue.push(message);
    this.#wakeReader();
  }

  #finish(end: ConnectionEnd): void {
    if (this.end) return;
    this.end = end;
    clearTimeout(this.#watchdog);
    // A stopped or stalled connection delivers nothing more; a closed one first delivers what came.
    if (end.kind === "stopped" || end.kind === "stalled") this.#queue.length = 0;
    this.#wakeReader();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #heard(): void {
    clearTimeout(this.#watchdog);
    if (this.end) return;
    const limit = this.#silenceLimitMs;
    this.#watchdog = setTimeout(() => {
      this.#finish({ kind: "stalled", silentMs: limit });
      this.#socket.terminate();
    }, limit);
  }
}

function parseMessage(text: string): StreamMessage | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (
      typeof value === "object" &&
      value !== null &&
      typeof (value as { type?: unknown }).type === "string"
    ) {
      return value as StreamMessage;
    }
  } catch {
    // Not JSON: no message of the protocol, so nothing to act on.
  }
  return undefined;
}

/** The server refused the upgrade with an HTTP answer: the API's JSON error, as other calls raise it. */
async function refusal(response: IncomingMessage): Promise<ConnectionEnd> {
  const status = response.statusCode ?? 0;
  let text = "";
  try {
    for await (const chunk of response) text += String(chunk);
  } catch {
    // The body is only for the message; the status says enough.
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const record = (typeof body === "object" && body !== null ? body : {}) as { code?: unknown; msg?: unknown };
  const requestId = response.headers["x-request-id"];
  const error = new MarketApiError({
    code: typeof record.code === "string" ? record.code : `HTTP ${status}`,
    msg: typeof record.msg === "string" ? record.msg : (response.statusMessage ?? ""),
    status,
    body,
    requestId: typeof requestId === "string" ? requestId : undefined,
  });
  return { kind: "refused", status, error };
}
