import type { DomainContext } from "../context.ts";
import { sequenceEvents, type RoundListener, type StoredEvent } from "./sequence-events.ts";

export type EventListener = (events: readonly StoredEvent[]) => void;

/** How long to wait before trying again when another instance holds the sequencer. */
const BUSY_RETRY_MS = 5;
/** Rounds also run this often without a poke: a change written behind the service's back. */
const SWEEP_INTERVAL_MS = 1000;
/**
 * Events read from the log at a time when this instance catches up (another instance's rounds, or
 * a gap after a lost connection): a long gap is read and told a page at a time, never held whole.
 */
export const CATCH_UP_PAGE = 1000;

/**
 * This instance's view of the event log (docs/design/events.md#when-rounds-run). Runs the sequencer after
 * every commit here (`poke`), when another instance announces a commit, and once a second; and
 * tells its listeners (the stream, webhook deliveries) of every new event exactly once, in id
 * order, whichever instance sequenced it: events another instance sequenced are read from the
 * log when its notice arrives, and so is any id below the first of a round of this instance's own
 * that it has not told yet.
 */
export class EventLog {
  readonly #ctx: DomainContext;
  readonly #roundListeners: readonly RoundListener[];
  readonly #listeners = new Set<EventListener>();
  /** The highest id told to the listeners. */
  #told = 0;
  #started: Promise<void> | undefined;
  #round: Promise<void> | undefined;
  #again = false;
  #telling: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #closed = false;

  /**
   * `roundListeners` hear each round's events inside its transaction (webhook deliveries owed);
   * `listen` is for what hears them after they commit (the stream).
   */
  constructor(ctx: DomainContext, roundListeners: readonly RoundListener[]) {
    this.#ctx = { ...ctx, afterCommit: undefined };
    this.#roundListeners = roundListeners;
  }

  /** The highest event id this instance has told its listeners of. */
  get lastTold(): number {
    return this.#told;
  }

  /**
   * Reads where the log stands (what is in it before now is not told: subscribers read it back
   * themselves), and with `sweep`, runs a round once a second from now on.
   */
  async start(options: { sweep?: boolean } = {}): Promise<void> {
    await this.#baseline();
    if (options.sweep !== false && !this.#sweep) {
      this.#sweep = setInterval(() => this.poke(), SWEEP_INTERVAL_MS);
      this.#sweep.unref();
    }
    this.poke();
  }

  #baseline(): Promise<void> {
    this.#started ??= this.#ctx.db
      .selectFrom("events")
      .select((eb) => eb.fn.max("event_id").as("last"))
      .executeTakeFirst()
      .then((last) => {
        this.#told = Math.max(this.#told, Number(last?.last ?? 0));
      });
    return this.#started;
  }

  /** Something committed: run a round soon (rounds never overlap; pokes during one make one more). */
  poke(): void {
    if (this.#closed) return;
    if (this.#round) {
      this.#again = true;
      return;
    }
    this.#round = this.#runRounds().finally(() => {
      this.#round = undefined;
      if (this.#again) {
        this.#again = false;
        this.poke();
      }
    });
  }

  /**
   * Runs rounds until nothing is left to sequence (or another instance holds the sequencer),
   * and waits until listeners were told: a poll answers what was committed before it.
   */
  async catchUp(): Promise<void> {
    this.poke();
    while (this.#round) await this.#round;
    await this.#telling;
  }

  /** Another instance sequenced events up to `lastId`. */
  heard(lastId: number): void {
    if (lastId > this.#told) this.#tell([]);
  }

  /** Calls `listener` with every new event from now on, in id order; the answer stops the calls. */
  onEvents(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    if (this.#retry) clearTimeout(this.#retry);
    await this.#round;
    await this.#telling;
  }

  async #runRounds(): Promise<void> {
    try {
      // Where the log stood before this instance's first round: its events are told, not counted.
      await this.#baseline();
      for (;;) {
        if (this.#closed) return;
        const round = await sequenceEvents(this.#ctx, this.#roundListeners);
        if (round.state === "busy") {
          this.#retryLater();
          return;
        }
        if (round.events.length > 0) this.#tell(round.events);
        if (!round.more) return;
      }
    } catch (error) {
      this.#ctx.log.error({ err: error }, "sequencing events failed; trying again");
      this.#retryLater();
    }
  }

  #retryLater(): void {
    if (this.#retry || this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.poke();
    }, BUSY_RETRY_MS);
    this.#retry.unref();
  }

  /**
   * Tells the listeners of `events` (a round of this instance's), after whatever came before them
   * that they were not told yet (read from the log), in order, each id once.
   */
  #tell(events: readonly StoredEvent[]): void {
    this.#telling = this.#telling
      .then(async () => {
        await this.#baseline();
        const first = events[0]?.event_id;
        if (first === undefined || first > this.#told + 1) {
          for (;;) {
            // From the last told on: each page moves it (`#publish`), so the loop ends.
            let query = this.#ctx.db
              .selectFrom("events")
              .selectAll()
              .where("event_id", ">", this.#told)
              .orderBy("event_id")
              .limit(CATCH_UP_PAGE);
            if (first !== undefined) query = query.where("event_id", "<", first);
            const page = (await query.execute()) as StoredEvent[];
            this.#publish(page);
            if (page.length < CATCH_UP_PAGE) break;
          }
        }
        this.#publish(events);
      })
      .catch((error: unknown) => this.#ctx.log.error({ err: error }, "reading new events failed"));
  }

  #publish(events: readonly StoredEvent[]): void {
    const fresh = events.filter((event) => event.event_id > this.#told);
    if (fresh.length === 0) return;
    this.#told = fresh[fresh.length - 1]!.event_id;
    for (const listener of this.#listeners) {
      try {
        listener(fresh);
      } catch (error) {
        this.#ctx.log.error({ err: error }, "an event listener failed");
      }
    }
  }
}
