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

export interface StreamSettings {
  /** Heartbeats (and WebSocket pings) this often; a client silent for two is dropped. */
  heartbeatMs: number;
  /** Bytes waiting to be sent beyond which a connection is dropped as a slow consumer. */
  maxBufferBytes: number;
  /** Streams one API token or website session may have open at once (`STREAM_MAX_PER_CREDENTIAL`). */
  maxPerCredential: number;
  /** Streams one client address may have open at once (`STREAM_MAX_PER_ADDRESS`). */
  maxPerAddress: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  heartbeatMs: 15_000,
  maxBufferBytes: 1024 * 1024,
  maxPerCredential: 20,
  maxPerAddress: 100,
};

/** A stream's place under the caps, or the cap that refuses one. */
export type StreamAdmission = { ok: true; release: () => void } | { ok: false; message: string };

/** Live events a connection holds while its replay runs; beyond it, it is a slow consumer. */
const MAX_HELD_DURING_REPLAY = 50_000;
/** How long a dropped connection has to take its close frame before its socket is destroyed. */
const DROP_GRACE_MS = 10_000;
/** How long a replay waits for a client to read what it was sent before dropping it. */
const REPLAY_DRAIN_TIMEOUT_MS = 30_000;
/** The longest stretch of the event loop the fan-out takes before letting other work run. */
const FAN_OUT_SLICE_MS = 5;
/**
 * While the fan-out is behind (events still to offer), the frames queued wait this long at most
 * before they are written: the longer they wait, the more frames each write carries.
 */
const WRITE_WITHIN_MS = 20;
/** How long the shutdown waits for clients to answer the close frame. */
const SHUTDOWN_GRACE_MS = 2_000;
/**
 * Client messages that may wait while one is handled (a subscribe's replay, which waits for the
 * client to read), and their bytes: beyond either, the client is closed with 4029. What the server
 * holds of a client's messages is thus bounded as what it holds for the client is.
 */
const MAX_WAITING_MESSAGES = 100;
const MAX_WAITING_BYTES = 64 * 1024;

/**
 * An event's message on one channel, serialized once for every connection it goes to: the JSON
 * (`payload`) and the whole WebSocket frame (`framed`: a server's frames are not masked, so the
 * bytes are the same for every client).
 */
export interface WireFrame {
  payload: Buffer;
  framed: Buffer;
}

/** A frame per event and channel, built once for every connection it goes to. */
type FrameOf = (event: StoredEvent, channel: StreamChannel) => WireFrame;

/** An event of a slice with its frames, for the connections that take the slice in one step. */
interface SliceEvent {
  event: StoredEvent;
  frameOf: FrameOf;
}

/** The payload of a run's frame: never sent through `ws` (a run goes only to raw sockets). */
const EMPTY = Buffer.alloc(0);

/** `payload` as one unfragmented WebSocket text frame from a server (RFC 6455 section 5.2). */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, header);
  return frame;
}

/**
 * Every stream of this instance (docs/design.md section 14): one listener on the event log, and
 * indexes from a user to their connections with `account`, from a goods to the connections with
 * its `book:` or `prices:` channel, and of those with `market` or `prices`, so that an event costs
 * only the connections it may concern. One timer beats every connection's heartbeat.
 */
export class EventStreamHub {
  readonly #eventLog: EventLog;
  readonly settings: StreamSettings;
  readonly #connections = new Set<StreamConnection>();
  /**
   * Every accepted socket until it closes, those of streams already ended (dropped, credentials
   * ended) included: a client that never answers their close would keep `ws`'s referenced close
   * timer, and so the process, alive after `close`, which destroys them.
   */
  readonly #sockets = new Set<WebSocket>();
  readonly #byUser = new Map<number, Set<StreamConnection>>();
  readonly #byGoods = new Map<number, Set<StreamConnection>>();
  /** The goods each connection is indexed under in `#byGoods`, to take it out again. */
  readonly #goodsOf = new Map<StreamConnection, number[]>();
  readonly #everyPublic = new Set<StreamConnection>();
  /**
   * Connections whose one subscription is `market` with no type filter: each slice's public
   * events go to them as one run of frames, joined once, instead of event by event.
   */
  readonly #plainMarket = new Set<StreamConnection>();
  readonly #stopListening: () => void;
  readonly #heartbeat: NodeJS.Timeout;
  /** Events told by the log and not yet offered to the connections, oldest first. */
  #pending: StoredEvent[] = [];
  #draining = false;
  /** Connections given frames not yet written, in the order they were given the first. */
  #toFlush: StreamConnection[] = [];
  /** How many of `#toFlush` this pass of writes has written. */
  #flushed = 0;
  /** When the oldest frame not yet written was queued. */
  #queuedSince = 0;
  /** A pass of writes is under way (it goes on in the next slices until every one is written). */
  #writing = false;
  /** Frames joined in the pass of writes under way, by their first: connections taking the same share it. */
  readonly #joined = new Map<Buffer, { frames: readonly Buffer[]; joined: Buffer }>();
  /** Places taken under the caps, by credential and by client address (`admit`). */
  readonly #perCredential = new Map<string, number>();
  readonly #perAddress = new Map<string, number>();
  /** Connections dropped as slow consumers since the start. */
  dropped = 0;
  /** The most bytes any connection had waiting right after a send (bounded by the drop). */
  peakBufferedBytes = 0;

  constructor(eventLog: EventLog, settings: StreamSettings) {
    this.#eventLog = eventLog;
    this.settings = settings;
    this.#stopListening = eventLog.onEvents((events) => {
      this.#pending.push(...events);
      if (!this.#draining) this.#drain();
    });
    this.#heartbeat = setInterval(() => {
      for (const connection of this.#connections) connection.beat();
    }, settings.heartbeatMs);
    this.#heartbeat.unref();
  }

  get eventLog(): EventLog {
    return this.#eventLog;
  }

  /** Open streams. */
  get size(): number {
    return this.#connections.size;
  }

  /** Places taken under the caps: upgrades admitted whose socket has not closed yet. */
  get admitted(): number {
    let places = 0;
    for (const count of this.#perAddress.values()) places += count;
    return places;
  }

  /**
   * Takes a place for one more stream of `credential` (a token's or a session's key) from
   * `address`, or answers the cap that refuses it. Taken before the upgrade, so that upgrades
   * under way count; `release` (idempotent) gives it back when the socket closes.
   */
  admit(credential: string, address: string): StreamAdmission {
    const byCredential = this.#perCredential.get(credential) ?? 0;
    if (byCredential >= this.settings.maxPerCredential)
      return {
        ok: false,
        message: `this credential has ${byCredential} event streams open, the most one API token or session may (STREAM_MAX_PER_CREDENTIAL); close one first`,
      };
    const byAddress = this.#perAddress.get(address) ?? 0;
    if (byAddress >= this.settings.maxPerAddress)
      return {
        ok: false,
        message: `${address} has ${byAddress} event streams open, the most one address may (STREAM_MAX_PER_ADDRESS); close one first`,
      };
    this.#perCredential.set(credential, byCredential + 1);
    this.#perAddress.set(address, byAddress + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        decrement(this.#perCredential, credential);
        decrement(this.#perAddress, address);
      },
    };
  }

  /** Takes an accepted WebSocket of `userId`. */
  accept(
    socket: WebSocket,
    options: { ctx: DomainContext; userId: number; credential: HeldCredential },
  ): void {
    const connection = new StreamConnection(this, socket, options);
    this.#connections.add(connection);
    this.#sockets.add(socket);
    socket.once("close", () => {
      this.#sockets.delete(socket);
      this.forget(connection);
    });
    connection.start();
  }

  /** Indexes `connection` from its subscriptions, after they changed. */
  reindex(connection: StreamConnection): void {
    this.#unindex(connection);
    const subscriptions = [...connection.subscriptions.values()];
    if (subscriptions.length === 1 && subscriptions[0]!.channel === "market" && !subscriptions[0]!.types) {
      this.#plainMarket.add(connection);
      return;
    }
    const goodsIds: number[] = [];
    for (const subscription of subscriptions) {
      if (subscription.channel === "account") addTo(this.#byUser, connection.userId, connection);
      else if (subscription.goodsId === undefined) this.#everyPublic.add(connection);
      else {
        addTo(this.#byGoods, subscription.goodsId, connection);
        goodsIds.push(subscription.goodsId);
      }
    }
    if (goodsIds.length > 0) this.#goodsOf.set(connection, goodsIds);
  }

  forget(connection: StreamConnection): void {
    this.#connections.delete(connection);
    this.#unindex(connection);
  }

  #unindex(connection: StreamConnection): void {
    removeFrom(this.#byUser, connection.userId, connection);
    this.#everyPublic.delete(connection);
    this.#plainMarket.delete(connection);
    for (const goodsId of this.#goodsOf.get(connection) ?? []) removeFrom(this.#byGoods, goodsId, connection);
    this.#goodsOf.delete(connection);
  }

  /**
   * The highest id offered to every connection concerned: a connection starts there, and a replay
   * reads the log up to it (what is above is still to be offered, live).
   */
  get lastOffered(): number {
    // Told and not pending (the pending are the newest told): offered, or older than the log's
    // start here, which nobody was offered and a replay reads.
    return this.#pending.length > 0 ? this.#pending[0]!.event_id - 1 : this.#eventLog.lastTold;
  }

  /**
   * Offers the pending events, and writes what they queued, in slices of a few milliseconds, the
   * event loop free between them (for the next round's answers and the sockets): a batch of
   * hundreds of events to a thousand streams is hundreds of thousands of frames. Each event goes to
   * all its connections in one slice. A connection's queued frames go out in one write (a write is
   * a system call, which costs more than building the frame: one per frame was most of the
   * fan-out's time), once every event told is offered, or, while the fan-out is behind, once the
   * oldest has waited `WRITE_WITHIN_MS`: behind, each write carries more frames, so the fan-out
   * catches up instead of writing as often as the events come.
   */
  #drain(): void {
    this.#draining = true;
    const started = performance.now();
    let offered = 0;
    // The slice's public events, for `#plainMarket`: framed on `market` and joined once for all.
    const run: SliceEvent[] = [];
    try {
      while (offered < this.#pending.length && performance.now() - started < FAN_OUT_SLICE_MS) {
        const event = this.#pending[offered]!;
        const frameOf = this.#deliver(event);
        if (event.user_id === null && this.#plainMarket.size > 0) run.push({ event, frameOf });
        offered++;
      }
    } finally {
      this.#pending = offered === this.#pending.length ? [] : this.#pending.slice(offered);
      if (run.length > 0) this.#deliverRun(run);
    }
    if (
      this.#flushed < this.#toFlush.length &&
      (this.#writing || this.#pending.length === 0 || started - this.#queuedSince >= WRITE_WITHIN_MS)
    )
      this.#flush(started + 2 * FAN_OUT_SLICE_MS);
    if (this.#pending.length === 0 && this.#toFlush.length === 0) {
      this.#draining = false;
      return;
    }
    setImmediate(() => this.#drain());
  }

  /**
   * A slice's public events to every connection of `#plainMarket`: one buffer of their `market`
   * frames, joined once, queued on each connection in one step (a thousand subscribers at a
   * thousand events a second are a million offers a second event by event).
   */
  #deliverRun(run: readonly SliceEvent[]): void {
    const frames = run.map(({ event, frameOf }) => frameOf(event, "market").framed);
    const joined = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
    for (const connection of this.#plainMarket) connection.offerRun(run, joined);
  }

  /** `connection` was given a frame to write while it had none waiting. */
  willFlush(connection: StreamConnection): void {
    if (this.#toFlush.length === 0) this.#queuedSince = performance.now();
    this.#toFlush.push(connection);
  }

  /** Writes the queued frames, connection after connection, until `deadline`; the next slice goes on. */
  #flush(deadline: number): void {
    this.#writing = true;
    while (this.#flushed < this.#toFlush.length) {
      this.#toFlush[this.#flushed++]!.flush();
      if (this.#flushed % 32 === 0 && performance.now() > deadline) return;
    }
    this.#toFlush = [];
    this.#flushed = 0;
    this.#writing = false;
    this.#joined.clear();
  }

  /**
   * `frames` as one buffer, joined once for all the connections of a pass of writes that take the
   * same frames (every subscriber of `market` does, unless one joined meanwhile).
   */
  join(frames: readonly Buffer[]): Buffer {
    if (frames.length === 1) return frames[0]!;
    const known = this.#joined.get(frames[0]!);
    if (
      known &&
      known.frames.length === frames.length &&
      known.frames.every((frame, index) => frame === frames[index])
    )
      return known.joined;
    const joined = Buffer.concat(frames);
    this.#joined.set(frames[0]!, { frames, joined });
    return joined;
  }

  /** Offers `event` to the connections of the indexes; answers its frames, built at most once. */
  #deliver(event: StoredEvent): FrameOf {
    let wire: string | undefined;
    // Encoded and framed once: `ws` would encode and frame it again for every connection.
    const frames = new Map<StreamChannel, WireFrame>();
    const frameOf: FrameOf = (stored, channel) => {
      let frame = frames.get(channel);
      if (frame === undefined) {
        wire ??= JSON.stringify(toWireEvent(stored));
        const payload = Buffer.from(`{"type":"event","channel":${JSON.stringify(channel)},"event":${wire}}`);
        frame = { payload, framed: textFrame(payload) };
        frames.set(channel, frame);
      }
      return frame;
    };
    if (event.user_id !== null) {
      const owners = this.#byUser.get(event.user_id);
      if (owners) for (const connection of owners) connection.offer(event, frameOf);
      return frameOf;
    }
    // A connection in both sets is offered the event twice and takes it once (its watermark).
    for (const connection of this.#everyPublic) connection.offer(event, frameOf);
    if (event.goods_id !== null) {
      const watchers = this.#byGoods.get(event.goods_id);
      if (watchers) for (const connection of watchers) connection.offer(event, frameOf);
    }
    return frameOf;
  }

  noteBuffered(bytes: number): void {
    if (bytes > this.peakBufferedBytes) this.peakBufferedBytes = bytes;
  }

  /** Closes every stream with 1001 and waits (briefly) for the clients to answer. */
  async close(): Promise<void> {
    this.#stopListening();
    clearInterval(this.#heartbeat);
    this.#pending = [];
    this.#toFlush = [];
    this.#flushed = 0;
    this.#joined.clear();
    const closing = [...this.#connections].map((connection) => connection.shutDown());
    await Promise.all(closing);
    for (const socket of this.#sockets) socket.terminate();
  }
}

/** A text message's data as `ws` hands it over, decoded. */
function textOf(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(new Uint8Array(data)).toString();
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = counts.get(key) ?? 0;
  if (count <= 1) counts.delete(key);
  else counts.set(key, count - 1);
}

function addTo<Key>(index: Map<Key, Set<StreamConnection>>, key: Key, connection: StreamConnection): void {
  let connections = index.get(key);
  if (!connections) index.set(key, (connections = new Set()));
  connections.add(connection);
}

function removeFrom<Key>(
  index: Map<Key, Set<StreamConnection>>,
  key: Key,
  connection: StreamConnection,
): void {
  const connections = index.get(key);
  if (connections?.delete(connection) && connections.size === 0) index.delete(key);
}

/** One client's stream: its subscriptions, its place in the log, its replays and heartbeats. */
export class StreamConnection {
  readonly #hub: EventStreamHub;
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
    hub: EventStreamHub,
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
