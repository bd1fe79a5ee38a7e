import type { StreamChannel } from "@skinmarket/contract";
import type { WebSocket } from "ws";
import type { DomainContext } from "../../domain/context.ts";
import type { EventLog } from "../../domain/events/event-log.ts";
import { toWireEvent } from "../../domain/events/read-events.ts";
import type { StoredEvent } from "../../domain/events/sequence-events.ts";
import type { HeldCredential } from "../plugins/auth.ts";
import { StreamConnection } from "./stream-connection.ts";
import type { StreamSettings } from "./stream-settings.ts";
import { textFrame, type FrameOf, type SliceEvent, type WireFrame } from "./wire-frame.ts";

/** A stream's place under the caps, or the cap that refuses one. */
export type StreamAdmission = { ok: true; release: () => void } | { ok: false; message: string };

/** The longest stretch of the event loop the fan-out takes before letting other work run. */
const FAN_OUT_SLICE_MS = 5;
/**
 * While the fan-out is behind (events still to offer), the frames queued wait this long at most
 * before they are written: the longer they wait, the more frames each write carries.
 */
const WRITE_WITHIN_MS = 20;

/**
 * Every stream of this instance (docs/design/event-stream.md#one-listener-per-process): one listener on the event log, and
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
