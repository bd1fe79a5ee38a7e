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
 * service keeps answering with per-instance limits (docs/design/wire-conventions.md#limits), and says so in its
 * log once per outage.
 */
export class LimiterStore {
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  readonly #limiters = new Map<string, RateLimiterAbstract>();
  readonly #distinct = new Map<string, Set<string>>();

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

  /**
   * Resolves once the counters are shared: at once in memory, when Redis is connected otherwise.
   * Until then a counter answers from memory (the insurance limiter), so a caller that must know
   * where its first request is counted waits here.
   */
  async connected(): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status === "ready") return;
    await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
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

  /**
   * Adds goods ids to the set `name` of a key (a token) for the current UTC day, unless the set
   * would then hold more than `limit`; ids already in it cost nothing. Answers whether they were
   * admitted, how many the set holds, and which ids are new today. In Redis the check and the add
   * are one script.
   */
  async addDistinct(
    name: string,
    key: string,
    ids: readonly string[],
    limit: number,
  ): Promise<{ admitted: boolean; used: number; fresh: string[] }> {
    const setKey = `${this.#prefix}:distinct:${name}:${key}:${utcDay()}`;
    const unique = [...new Set(ids)];
    if (this.#redis?.status === "ready") {
      try {
        const [admitted, used, ...fresh] = (await this.#redis.eval(
          ADD_DISTINCT_SCRIPT,
          1,
          setKey,
          String(limit),
          String(SET_TTL_SECONDS),
          ...unique,
        )) as [number, number, ...string[]];
        return { admitted: admitted === 1, used, fresh };
      } catch {
        // Redis went away mid-call: count in memory, as every other limit does.
      }
    }
    return this.#addDistinctInMemory(setKey, unique, limit);
  }

  /** Takes ids back out of today's set (a request that was refused after all). */
  async removeDistinct(name: string, key: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const setKey = `${this.#prefix}:distinct:${name}:${key}:${utcDay()}`;
    const memory = this.#distinct.get(setKey);
    for (const id of ids) memory?.delete(id);
    if (this.#redis?.status === "ready") await this.#redis.srem(setKey, ...ids).catch(() => undefined);
  }

  #addDistinctInMemory(setKey: string, ids: string[], limit: number) {
    for (const known of this.#distinct.keys())
      if (!known.endsWith(`:${utcDay()}`)) this.#distinct.delete(known);
    const set = this.#distinct.get(setKey) ?? new Set<string>();
    const fresh = ids.filter((id) => !set.has(id));
    if (set.size + fresh.length > limit) return { admitted: false, used: set.size, fresh: [] };
    for (const id of fresh) set.add(id);
    this.#distinct.set(setKey, set);
    return { admitted: true, used: set.size, fresh };
  }

  /** Forgets every count of one key (a token) in every counter made so far. */
  async reset(key: string): Promise<void> {
    await Promise.all([...this.#limiters.values()].map((limiter) => limiter.delete(key)));
    for (const setKey of [...this.#distinct.keys()])
      if (setKey.includes(`:${key}:`)) this.#distinct.delete(setKey);
    if (this.#redis?.status === "ready") {
      const keys = await this.#redis.keys(`${this.#prefix}:distinct:*:${key}:*`).catch(() => []);
      if (keys.length > 0) await this.#redis.del(...keys).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.#redis) await this.#redis.quit().catch(() => this.#redis?.disconnect());
  }
}

/** The day of the distinct-goods allowance: the calendar day in UTC (docs/design/wire-conventions.md#limits). */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Seconds until the next UTC midnight, when a new distinct-goods day starts. */
export function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

const SET_TTL_SECONDS = 2 * 86_400;

/** KEYS[1]: the day's set; ARGV: limit, ttl, ids (distinct). Answers {admitted 0|1, size, fresh ids...}. */
const ADD_DISTINCT_SCRIPT = `
local fresh = {}
for i = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 then table.insert(fresh, ARGV[i]) end
end
local size = redis.call('SCARD', KEYS[1])
if size + #fresh > tonumber(ARGV[1]) then return {0, size} end
for _, id in ipairs(fresh) do redis.call('SADD', KEYS[1], id) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
return {1, size + #fresh, unpack(fresh)}
`;
