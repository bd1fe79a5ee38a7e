import { STREAM_CLOSE_CODES, type StreamChannel, type StreamServerMessage } from "@skinmarket/contract";
import { Socket } from "node:net";
import type { WebSocket } from "ws";
import type { DomainContext } from "../../domain/context.ts";
import type { EventLog } from "../../domain/events/event-log.ts";
import { toWireEvent } from "../../domain/events/read-events.ts";
import type { StoredEvent } from "../../domain/events/sequence-events.ts";
import {
  firstMatch,
  parseClientMessage,
  replayEvents,
  subscriptionOf,
  type Subscription,
} from "../../domain/events/stream-subscriptions.ts";
import { credentialHolds, type HeldCredential } from "../plugins/auth.ts";
import type { StreamSettings } from "./stream-settings.ts";
import type { FrameOf, SliceEvent, WireFrame } from "./wire-frame.ts";

/** Live events a connection holds while its replay runs; beyond it, it is a slow consumer. */
const MAX_HELD_DURING_REPLAY = 50_000;
/** How long a dropped connection has to take its close frame before its socket is destroyed. */
const DROP_GRACE_MS = 10_000;
/** How long a replay waits for a client to read what it was sent before dropping it. */
const REPLAY_DRAIN_TIMEOUT_MS = 30_000;
/** How long the shutdown waits for clients to answer the close frame. */
const SHUTDOWN_GRACE_MS = 2_000;
/**
 * Client messages that may wait while one is handled (a subscribe's replay, which waits for the
 * client to read), and their bytes: beyond either, the client is closed with 4029. What the server
 * holds of a client's messages is thus bounded as what it holds for the client is.
 */
const MAX_WAITING_MESSAGES = 100;
const MAX_WAITING_BYTES = 64 * 1024;

/** The payload of a run's frame: never sent through `ws` (a run goes only to raw sockets). */
const EMPTY = Buffer.alloc(0);

/**
 * What a connection asks of the hub that holds it (`EventStreamHub`): the settings, the place in
 * the log, the indexes to keep, and the passes of writes its frames join.
 */
export interface ConnectionHub {
  readonly settings: StreamSettings;
  readonly eventLog: EventLog;
  readonly lastOffered: number;
  dropped: number;
  reindex(connection: StreamConnection): void;
  forget(connection: StreamConnection): void;
  willFlush(connection: StreamConnection): void;
  join(frames: readonly Buffer[]): Buffer;
  noteBuffered(bytes: number): void;
}

/** A text message's data as `ws` hands it over, decoded. */
function textOf(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(new Uint8Array(data)).toString();
}
/** One client's stream: its subscriptions, its place in the log, its replays and heartbeats. */
export class StreamConnection {
  readonly #hub: ConnectionHub;
  readonly #socket: WebSocket;
  /**
   * The TCP socket under `#socket`, for writing whole frames built once for every connection:
   * only without extensions (the server negotiates none; a compressed stream frames each message
   * itself), otherwise each frame goes through `ws`.
   */
  readonly #raw: Socket | undefined;
  /** Live frames queued and not yet written, written together (the hub's pass, or before a message). */
  #outbox: WireFrame[] = [];
  /** Bytes waiting to be sent when the outbox took its first frame, and the outbox's. */
  #outboxBytes = 0;
  readonly #ctx: DomainContext;
  readonly userId: number;
  readonly #credential: HeldCredential;
  /** In the order subscribed: an event goes out once, with the first channel it matches. */
  readonly subscriptions = new Map<StreamChannel, Subscription>();
  /** The highest id of a live event offered: each is taken once. */
  #watermark: number;
  /** Live events held while a replay runs. */
  #held: StoredEvent[] | undefined;
  /** A message is being handled (a subscribe's replay): the next ones wait, in order. */
  #busy = false;
  /** Messages received while one is handled, with their bytes; bounded (`MAX_WAITING_*`). */
  #waiting: { text: string; bytes: number }[] = [];
  #waitingBytes = 0;
  #missedPongs = 0;
  #checking = false;
  #ended = false;

  constructor(
    hub: ConnectionHub,
    socket: WebSocket,
    options: { ctx: DomainContext; userId: number; credential: HeldCredential },
  ) {
    this.#hub = hub;
    this.#socket = socket;
    const raw = (socket as unknown as { _socket?: unknown })._socket;
    this.#raw = raw instanceof Socket && socket.extensions === "" ? raw : undefined;
    this.#ctx = options.ctx;
    this.userId = options.userId;
    this.#credential = options.credential;
    this.#watermark = hub.lastOffered;
  }

  start(): void {
    this.#socket.on("pong", () => (this.#missedPongs = 0));
    this.#socket.on("message", (data, isBinary) => {
      if (this.#ended) return;
      // Any frame from the client shows it is there.
      this.#missedPongs = 0;
      if (isBinary) {
        this.#send({ type: "error", code: "invalid_argument", message: "message: send JSON text frames" });
        return;
      }
      const bytes = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength;
      if (!this.#busy) this.#take(textOf(data));
      else if (this.#waiting.length >= MAX_WAITING_MESSAGES || this.#waitingBytes + bytes > MAX_WAITING_BYTES)
        this.#refuseFlood();
      else {
        this.#waiting.push({ text: textOf(data), bytes });
        this.#waitingBytes += bytes;
      }
    });
    this.#send({
      type: "welcome",
      user_id: String(this.userId),
      last_event_id: String(this.#hub.lastOffered),
      heartbeat_ms: this.#hub.settings.heartbeatMs,
    });
  }

  /**
   * Handles a client message; one that answers a promise (a subscribe's replay) keeps the
   * connection busy until it settles, and the messages that came meanwhile are handled then.
   */
  #take(text: string): void {
    let work: Promise<void> | undefined;
    try {
      work = this.#handle(text);
    } catch (error) {
      this.#failed(error);
      return;
    }
    if (work === undefined) return;
    this.#busy = true;
    work
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#busy = false;
        while (!this.#busy && !this.#ended && this.#waiting.length > 0) {
          const next = this.#waiting.shift()!;
          this.#waitingBytes -= next.bytes;
          this.#take(next.text);
        }
      });
  }

  #failed(error: unknown): void {
    this.#ctx.log.error({ err: error }, "an event stream message failed");
    this.#send({ type: "error", code: "invalid_argument", message: "message: could not be handled" });
  }

  /**
   * A client that sends more than `MAX_WAITING_*` while one of its messages is handled: closed
   * with 4029, and read no more, so that what it goes on sending waits in the kernel's buffers and
   * its own, not in the server; the socket is ended once the close frame is written.
   */
  #refuseFlood(): void {
    this.#end(STREAM_CLOSE_CODES.tooManyMessages, "too many messages waiting");
    this.#socket.pause();
    (this.#socket as unknown as { _socket?: Socket })._socket?.end();
  }

  /** Handles a client message; answers the replay's promise when it starts one. */
  #handle(text: string): Promise<void> | undefined {
    if (this.#ended) return;
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.#send({ type: "error", code: "invalid_argument", message: parsed.message });
      return;
    }
    const message = parsed.message;
    if (message.op === "ping") {
      this.#send({ type: "pong" });
      return;
    }
    if (message.op === "unsubscribe") {
      for (const channel of message.channels) this.subscriptions.delete(channel);
      this.#hub.reindex(this);
      this.#send({ type: "unsubscribed", channels: message.channels });
      return;
    }
    const fresh = message.channels.filter((channel) => !this.subscriptions.has(channel));
    if (this.subscriptions.size + fresh.length > 100) {
      this.#send({
        type: "error",
        code: "invalid_argument",
        message: `channels: at most 100 per connection; ${this.subscriptions.size} already subscribed`,
      });
      return;
    }
    const before = [...this.subscriptions.values()];
    const added = message.channels.map((channel) => subscriptionOf(channel, message.types));
    // Subscribing again to a channel replaces its type filter.
    for (const subscription of added) this.subscriptions.set(subscription.channel, subscription);
    this.#hub.reindex(this);
    if (message.after === undefined) {
      this.#send({ type: "subscribed", channels: message.channels, after: String(this.#watermark) });
      return;
    }
    this.#send({ type: "subscribed", channels: message.channels, after: message.after });
    return this.#replay(
      added,
      before.filter((old) => !added.some((it) => it.channel === old.channel)),
      message.after,
    );
  }

  /**
   * Sends the events of `added` after `after` from the log, then the live events held meanwhile:
   * what the log had when the replay began is read from it, what came later is live, and nothing is
   * sent twice (an event the connection's other channels already carried live is skipped).
   */
  async #replay(
    added: readonly Subscription[],
    others: readonly Subscription[],
    after: string,
  ): Promise<void> {
    const sentLive = this.#watermark;
    this.#held = [];
    // Everything committed before now is told first, so that the log holds all below `upTo`.
    await this.#hub.eventLog.catchUp();
    const upTo = this.#hub.lastOffered;
    const events = replayEvents(this.#ctx, {
      userId: this.userId,
      subscriptions: added,
      after: Number(after),
      upTo,
    });
    for await (const event of events) {
      if (this.#ended) return;
      if (event.event_id <= sentLive && firstMatch(others, event, this.userId)) continue;
      const channel = firstMatch(this.subscriptions.values(), event, this.userId)?.channel;
      if (channel === undefined) continue;
      this.#sendFrame(
        `{"type":"event","channel":${JSON.stringify(channel)},"event":${JSON.stringify(toWireEvent(event))}}`,
      );
      if (!(await this.#drained())) return;
    }
    const held = this.#held;
    this.#held = undefined;
    for (const event of held) {
      // Held and replayed both: the replay sent it.
      if (event.event_id <= upTo && firstMatch(added, event, this.userId)) continue;
      const channel = firstMatch(this.subscriptions.values(), event, this.userId)?.channel;
      if (channel !== undefined)
        this.#sendFrame(
          `{"type":"event","channel":${JSON.stringify(channel)},"event":${JSON.stringify(toWireEvent(event))}}`,
        );
    }
  }

  /** Waits while the client has more than half the limit to read; false once it is dropped. */
  async #drained(): Promise<boolean> {
    const limit = this.#hub.settings.maxBufferBytes / 2;
    const started = performance.now();
    while (!this.#ended && this.#socket.bufferedAmount > limit) {
      if (performance.now() - started > REPLAY_DRAIN_TIMEOUT_MS) {
        this.#drop();
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return !this.#ended;
  }

  /** A live event from the hub. */
  offer(event: StoredEvent, frameOf: FrameOf): void {
    if (event.event_id <= this.#watermark || this.#ended) return;
    this.#watermark = event.event_id;
    if (this.#held) {
      this.#held.push(event);
      if (this.#held.length > MAX_HELD_DURING_REPLAY) this.#drop();
      return;
    }
    const subscription = firstMatch(this.subscriptions.values(), event, this.userId);
    if (subscription) this.#queue(frameOf(event, subscription.channel));
  }

  /** Queues `frame` for the hub's next pass of writes, unless it passes the slow-consumer limit. */
  #queue(frame: WireFrame): void {
    if (this.#outbox.length === 0) {
      this.#hub.willFlush(this);
      this.#outboxBytes = this.#socket.bufferedAmount;
    }
    // The limit applies to what waits and what the outbox adds, frame by frame, as if each frame
    // were written at once: the frame that would pass it is not queued, and the client is dropped.
    this.#outboxBytes += frame.framed.length;
    if (this.#outboxBytes > this.#hub.settings.maxBufferBytes) {
      this.#drop();
      return;
    }
    this.#outbox.push(frame);
  }

  /**
   * A slice's public events from the hub, for a connection subscribed to `market` alone, as one
   * buffer of their frames (`joined`). Event by event instead while a replay holds live events,
   * when the connection took some of them already, or when `ws` frames each message.
   */
  offerRun(run: readonly SliceEvent[], joined: Buffer): void {
    if (this.#ended) return;
    if (this.#held || run[0]!.event.event_id <= this.#watermark || !this.#raw) {
      for (const { event, frameOf } of run) this.offer(event, frameOf);
      return;
    }
    this.#watermark = run[run.length - 1]!.event.event_id;
    this.#queue({ payload: EMPTY, framed: joined });
  }

  /** Writes the queued live frames in one write, then applies the slow-consumer limit. */
  flush(): void {
    const frames = this.#outbox;
    this.#outbox = [];
    if (frames.length === 0 || this.#ended || this.#socket.readyState !== this.#socket.OPEN) return;
    if (this.#raw) this.#raw.write(this.#hub.join(frames.map((frame) => frame.framed)));
    else for (const frame of frames) this.#socket.send(frame.payload, { binary: false });
    this.#checkBuffered();
  }

  #send(message: StreamServerMessage): void {
    this.#sendFrame(JSON.stringify(message));
  }

  #sendFrame(frame: string): void {
    if (this.#ended || this.#socket.readyState !== this.#socket.OPEN) return;
    // Live frames queued before this message go first.
    if (this.#outbox.length > 0) this.flush();
    // A text frame either way: the buffers hold JSON's UTF-8.
    this.#socket.send(frame, { binary: false });
    this.#checkBuffered();
  }

  #checkBuffered(): void {
    const buffered = this.#socket.bufferedAmount;
    this.#hub.noteBuffered(buffered);
    if (buffered > this.#hub.settings.maxBufferBytes) this.#drop();
  }

  /** A slow consumer: told why, closed with 4008, and destroyed if it does not take the close. */
  #drop(): void {
    if (this.#ended) return;
    this.#hub.dropped++;
    this.#socket.send(
      JSON.stringify({ type: "dropped", reason: "slow_consumer" } satisfies StreamServerMessage),
    );
    this.#end(STREAM_CLOSE_CODES.slowConsumer, "slow consumer");
  }

  #end(code: number, reason: string): void {
    this.#ended = true;
    this.#held = undefined;
    this.#outbox = [];
    this.#waiting = [];
    this.#hub.forget(this);
    this.#socket.close(code, reason);
    setTimeout(() => this.#socket.terminate(), DROP_GRACE_MS).unref();
  }

  /** The heartbeat: a ping frame and a heartbeat message; the credential checked again. */
  beat(): void {
    if (this.#ended) return;
    if (this.#missedPongs >= 2) {
      this.#ended = true;
      this.#hub.forget(this);
      this.#socket.terminate();
      return;
    }
    this.#missedPongs++;
    this.#socket.ping();
    this.#send({ type: "heartbeat", last_event_id: String(this.#hub.lastOffered) });
    if (this.#checking) return;
    this.#checking = true;
    credentialHolds(this.#ctx, this.#credential, this.userId)
      .then((holds) => {
        if (!holds) this.#end(STREAM_CLOSE_CODES.credentialsEnded, "credentials revoked or expired");
      })
      .catch((error: unknown) => this.#ctx.log.warn({ err: error }, "could not check a stream's credential"))
      .finally(() => (this.#checking = false));
  }

  /** The server is stopping: close 1001, destroyed if the client does not answer soon. */
  shutDown(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#socket.readyState === this.#socket.CLOSED) return resolve();
      const timer = setTimeout(() => {
        this.#socket.terminate();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      this.#socket.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      this.#ended = true;
      this.#socket.close(STREAM_CLOSE_CODES.shuttingDown, "server shutting down");
    });
  }
}
