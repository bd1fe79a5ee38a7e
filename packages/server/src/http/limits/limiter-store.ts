import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";

export interface LimiterStoreOptions {
  /** Shared counters in Redis; without it each instance counts on its own, in memory. */
  redisUrl?: string;
  /** Keys live under this prefix in Redis (tests give each app its own). */
  keyPrefix?: string;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/**
 * Fixed-window counters per key, in memory or shared in Redis (`rate-limiter-flexible`). When
 * Redis cannot be reached, each counter falls back to an in-memory one of the same size, so the
 * service keeps answering with per-instance limits (docs/design.md section 7), and says so in its
 * log once per outage.
 */
export class LimiterStore {
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(options: LimiterStoreOptions) {
    this.#prefix = options.keyPrefix ?? "skinmarket:limits";
    if (options.redisUrl) {
      const redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      });
      let down = false;
      redis.on("error", (error: Error) => {
        if (down) return;
        down = true;
        options.log.warn({ err: error }, "Redis is unreachable: limits count per instance until it is back");
      });
      redis.on("ready", () => {
        if (down) options.log.info({}, "Redis is reachable again: limits are shared");
        down = false;
      });
      this.#redis = redis;
    }
  }

  get shared(): boolean {
    return this.#redis !== undefined;
  }

  /** The counter of `points` per `seconds` named `name` (one per operation and kind of limit). */
  limiter(name: string, points: number, seconds: number): RateLimiterAbstract {
    const id = `${name}:${points}:${seconds}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: seconds, keyPrefix: `${this.#prefix}:${id}` });
      limiter = this.#redis
        ? new RateLimiterRedis({
            storeClient: this.#redis,
            points,
            duration: seconds,
            keyPrefix: `${this.#prefix}:${id}`,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Forgets every count of one key (a token) in every counter made so far. */
  async reset(key: string): Promise<void> {
    await Promise.all([...this.#limiters.values()].map((limiter) => limiter.delete(key)));
  }

  async close(): Promise<void> {
    if (this.#redis) await this.#redis.quit().catch(() => this.#redis?.disconnect());
  }
}
