import type { Clock } from "../domain/clock.ts";

/**
 * Steam answers `429` to an inventory read too often, and bots must back off; the face does the
 * same so that a bot's back-off is tested. The rate is the face's own (Steam publishes none):
 * `INVENTORY_READS_PER_MINUTE` reads of one inventory per minute of the sandbox clock, so a test
 * can move the clock past the wait. Counted in the process: a rate limit, not a ledger. The market
 * routes count their reads per client with the same class at their own rate.
 */
export const INVENTORY_READS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

export class InventoryReadLimit {
  readonly #reads = new Map<string, number[]>();
  readonly #clock: Clock;
  readonly #perMinute: number;

  constructor(clock: Clock, perMinute: number = INVENTORY_READS_PER_MINUTE) {
    this.#clock = clock;
    this.#perMinute = perMinute;
  }

  /** Counts a read of the inventory (or by the client); false when it is one too many for the last minute. */
  take(steamid: string): boolean {
    const now = this.#clock.now().getTime();
    const recent = (this.#reads.get(steamid) ?? []).filter((at) => at > now - WINDOW_MS);
    if (recent.length >= this.#perMinute) {
      this.#reads.set(steamid, recent);
      return false;
    }
    recent.push(now);
    this.#reads.set(steamid, recent);
    return true;
  }
}
