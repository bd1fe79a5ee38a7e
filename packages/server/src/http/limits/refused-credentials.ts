import { RateLimiterRes } from "rate-limiter-flexible";
import type { LimiterStore } from "./limiter-store.ts";

/**
 * Refused credentials (unknown, malformed or revoked API tokens, wrong sandbox admin tokens) per
 * client address: 30 per 10 minutes, counted in the limiter store (memory, or Redis shared by
 * every instance). Each admitted refusal writes an audit row; beyond the budget the answer is 429
 * and nothing is written, so anonymous traffic cannot grow the audit table faster than this
 * (docs/design/security.md#security). Valid credentials are never counted.
 */
export const REFUSED_CREDENTIALS = { points: 30, seconds: 600 } as const;

export class RefusedCredentialLimit {
  readonly #store: LimiterStore;

  constructor(store: LimiterStore) {
    this.#store = store;
    this.#limiter();
  }

  /** Takes one refusal from the address's budget: undefined when taken, else seconds to wait. */
  async take(address: string): Promise<number | undefined> {
    try {
      await this.#limiter().consume(address);
      return undefined;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    }
  }

  #limiter() {
    return this.#store.limiter(
      "refused-credentials",
      REFUSED_CREDENTIALS.points,
      REFUSED_CREDENTIALS.seconds,
    );
  }
}
