import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";

export const REDIS_URL = process.env.TEST_REDIS_URL;

const silent = { warn() {}, info() {} };

export type StoreKind = "memory" | "Redis";

/**
 * A limiter store of a suite's own (keys under a random prefix), connected before it is used, so
 * that a Redis suite's first request is counted in Redis and not in the memory fallback.
 */
export async function limiterStoreOf(kind: StoreKind, keyPrefix = `skm-test:${randomUUID()}`) {
  const store = new LimiterStore({
    ...(kind === "Redis" ? { redisUrl: REDIS_URL! } : {}),
    keyPrefix,
    log: silent,
  });
  let waiting: NodeJS.Timeout | undefined;
  const unreachable = new Promise<never>((_, reject) => {
    waiting = setTimeout(() => reject(new Error(`Redis at ${REDIS_URL} did not connect in 10 s`)), 10_000);
  });
  try {
    await Promise.race([store.connected(), unreachable]);
  } catch (error) {
    await store.close();
    throw error;
  } finally {
    clearTimeout(waiting);
  }
  return { store, keyPrefix };
}

/**
 * A Redis suite proves that Redis answered: the limiter falls back to memory when Redis is away,
 * so the suite's outcomes alone would pass without it. The keys under its prefix are the proof.
 */
export async function assertCountedInRedis(keyPrefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    let found = 0;
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${keyPrefix}:*`, "COUNT", 1000);
      cursor = next;
      found += keys.length;
    } while (cursor !== "0" && found === 0);
    assert.ok(found > 0, `no counter under ${keyPrefix}: in Redis; the suite counted in memory`);
  } finally {
    redis.disconnect();
  }
}
