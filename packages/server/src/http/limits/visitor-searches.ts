import { RateLimiterRes } from "rate-limiter-flexible";
import type { Failure } from "../../domain/result.ts";
import type { LimiterStore } from "./limiter-store.ts";

/**
 * Visitors' catalog pages and name suggestions per client address: 60 per 10 seconds, counted in
 * the limiter store (memory, or Redis shared by every instance), as refused credentials are
 * (docs/design/security.md#the-website-routes). A person typing into the search box sends a few a second;
 * a scraper walking the catalog anonymously is held back. Signed-in viewers are not counted.
 */
export const VISITOR_SEARCHES = { points: 60, seconds: 10 } as const;

export class VisitorSearchLimit {
  readonly #store: LimiterStore;

  constructor(store: LimiterStore) {
    this.#store = store;
  }

  /** Takes one search from the address's budget: undefined when taken, else the 429 refusal. */
  async take(address: string): Promise<Failure | undefined> {
    try {
      await this.#store
        .limiter("visitor-searches", VISITOR_SEARCHES.points, VISITOR_SEARCHES.seconds)
        .consume(address);
      return undefined;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      return {
        code: "Rate Limit Exceeded",
        message: `a visitor may search ${VISITOR_SEARCHES.points} times in ${VISITOR_SEARCHES.seconds} s from one address; retry after ${seconds} s, or sign in`,
        retryAfterSeconds: seconds,
      };
    }
  }
}
