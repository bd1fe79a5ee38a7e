/** Everything time-dependent reads the time from here (docs/design/architecture.md#layout-and-the-rules-between-parts). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The sandbox's movable clock: real time plus an offset that only grows. The offset is kept in
 * the database by `advanceClock` so that it survives restarts; this object holds the current value.
 */
export class OffsetClock implements Clock {
  #offsetMs = 0;
  readonly #realNow: () => number;

  /** `realNow` is the time the offset is added to (tests give one that stands still). */
  constructor(realNow: () => number = Date.now) {
    this.#realNow = realNow;
  }

  now(): Date {
    return new Date(this.#realNow() + this.#offsetMs);
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  setOffset(offsetMs: number): void {
    if (!Number.isSafeInteger(offsetMs) || offsetMs < 0) throw new RangeError(`bad clock offset ${offsetMs}`);
    this.#offsetMs = offsetMs;
  }
}

export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
