import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eventTypeMatches, type MarketplaceEvent } from "@skinmarket/contract";
import { WebSocketServer, type WebSocket } from "ws";

export const FAKE_TOKEN = "smk_fake_stream_token";

interface Subscription {
  channels: string[];
  after: string | undefined;
  types: string[] | undefined;
}

/**
 * A fake of the server side of the stream, faithful to the stream protocol (docs/design/event-stream.md#the-stream) but nothing more: one `account` channel over an in-memory log. It lets the SDK's
 * client be tested for reconnection, resumption and the watchdog; the real server's own tests
 * cover the real stream.
 */
export class FakeStreamServer {
  readonly log: MarketplaceEvent[] = [];
  readonly subscriptions: Subscription[] = [];
  readonly upgrades: Array<Record<string, string | string[] | undefined>> = [];
  /** Milliseconds between heartbeats, announced in the welcome. */
  heartbeatMs = 15_000;
  /** Announces heartbeats but sends none: a connection broken somewhere on the route. */
  silent = false;
  /** The next upgrades are refused with this status and body. */
  refuseWith: { status: number; body: unknown } | undefined;
  /** Replays also resend this many events at or below `after` (a server that repeats itself). */
  replayOverlap = 0;
  #http: Server;
  #sockets = new Set<WebSocket>();
  #subscribed = new Map<WebSocket, Subscription>();
  #waiters: Array<() => void> = [];

  private constructor() {
    const wss = new WebSocketServer({ noServer: true });
    // The polling operation, answered empty: `skinmarket listen` checks the token with it first.
    this.#http = createServer((request, response) => {
      const known = request.headers.authorization === `Bearer ${FAKE_TOKEN}`;
      response.writeHead(known ? 200 : 401, { "content-type": "application/json" });
      response.end(
        JSON.stringify(known ? { items: [], has_more: false } : { code: "Unauthorized", msg: "" }),
      );
    });
    this.#http.on("upgrade", (request, socket, head) => {
      this.upgrades.push(request.headers);
      const refusal =
        this.refuseWith ??
        (request.headers.authorization === `Bearer ${FAKE_TOKEN}`
          ? undefined
          : { status: 401, body: { code: "Unauthorized", msg: "invalid or missing API token" } });
      if (refusal) {
        const text = JSON.stringify(refusal.body);
        socket.end(
          `HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
        );
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
    });
  }

  static async start(): Promise<FakeStreamServer> {
    const server = new FakeStreamServer();
    await new Promise<void>((resolve) => server.#http.listen(0, "127.0.0.1", resolve));
    return server;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` subscriptions have been received in all. */
  async subscribedTimes(count: number): Promise<void> {
    while (this.subscriptions.length < count)
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Appends an event to the log and sends it to every matching subscription. */
  publish(type: MarketplaceEvent["type"], data: unknown = {}): MarketplaceEvent {
    const id = String(Number(this.log.at(-1)?.id ?? "100") + 1);
    const event: MarketplaceEvent = { id, type, created_at: 1_790_000_000, goods_id: null, data };
    this.log.push(event);
    for (const [ws, subscription] of this.#subscribed) {
      if (eventTypeMatches(type, subscription.types))
        this.#send(ws, { type: "event", channel: "account", event });
    }
    return event;
  }

  /** Every connection cut without a close frame, as a broken network does. */
  drop(): void {
    for (const ws of this.#sockets) ws.terminate();
  }

  closeAll(code: number, reason = ""): void {
    for (const ws of this.#sockets) ws.close(code, reason);
  }

  sendToAll(message: unknown): void {
    for (const ws of this.#sockets) this.#send(ws, message);
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  #accept(ws: WebSocket): void {
    this.#sockets.add(ws);
    const heartbeat = !this.silent
      ? setInterval(
          () => this.#send(ws, { type: "heartbeat", last_event_id: this.log.at(-1)?.id ?? "100" }),
          this.heartbeatMs,
        )
      : undefined;
    ws.on("close", () => {
      clearInterval(heartbeat);
      this.#sockets.delete(ws);
      this.#subscribed.delete(ws);
    });
    this.#send(ws, {
      type: "welcome",
      user_id: "1001",
      last_event_id: this.log.at(-1)?.id ?? "100",
      heartbeat_ms: this.heartbeatMs,
    });
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { op: string } & Subscription;
      if (message.op !== "subscribe") return;
      const subscription = { channels: message.channels, after: message.after, types: message.types };
      this.subscriptions.push(subscription);
      for (const wake of this.#waiters.splice(0)) wake();
      const after = BigInt(message.after ?? this.log.at(-1)?.id ?? "100") - BigInt(this.replayOverlap);
      this.#send(ws, { type: "subscribed", channels: message.channels, after: String(after) });
      for (const event of this.log) {
        if (BigInt(event.id) > after && eventTypeMatches(event.type, message.types)) {
          this.#send(ws, { type: "event", channel: "account", event });
        }
      }
      this.#subscribed.set(ws, subscription);
    });
  }

  #send(ws: WebSocket, message: unknown): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }
}
