import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TokenCache, type CachedToken } from "../../src/domain/token-cache.ts";

const caller = (userId: number): CachedToken => ({
  userId,
  tokenId: userId * 10,
  accessLevel: "developer",
  lastUsedAt: null,
});

/** A cache on a clock the test moves by hand. */
function cacheAt(start: number, options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: start };
  const cache = new TokenCache({ ...options, now: () => clock.now });
  /** A lookup begun and finished at the current time. */
  const remember = (token: string, who: CachedToken) => cache.set(token, who, cache.beginLookup());
  return { cache, clock, remember };
}

describe("the token cache", () => {
  test("trusts a token for 1 s by default: the bound of a revocation on every instance", () => {
    const { cache, clock, remember } = cacheAt(10_000);
    remember("smk_a", caller(1));
    clock.now = 10_999;
    assert.deepEqual(cache.get("smk_a"), caller(1));
    clock.now = 11_000;
    assert.equal(cache.get("smk_a"), undefined);
  });

  test("answers a remembered token until its lifetime is over, then forgets it", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000 });
    remember("smk_a", caller(1));
    clock.now = 10_999;
    assert.deepEqual(cache.get("smk_a"), caller(1));
    clock.now = 11_000;
    assert.equal(cache.get("smk_a"), undefined);
    assert.equal(cache.size, 0);
  });

  test("an entry lives from the moment its lookup began, not from when the answer came back", () => {
    const { cache, clock } = cacheAt(10_000, { ttlMs: 1000 });
    const lookup = cache.beginLookup();
    clock.now = 10_600; // a slow read of the table
    cache.set("smk_a", caller(1), lookup);
    clock.now = 10_999;
    assert.deepEqual(cache.get("smk_a"), caller(1));
    clock.now = 11_000;
    assert.equal(cache.get("smk_a"), undefined, "1000 ms after the read began, not after it ended");
  });

  test("a lookup begun before forget() does not put its answer back after it", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000 });
    const lookup = cache.beginLookup(); // reads the token as valid ...
    clock.now = 10_002;
    cache.forget(); // ... while its revocation commits and is announced
    clock.now = 10_003;
    cache.set("smk_a", caller(1), lookup);
    assert.equal(cache.get("smk_a"), undefined);
    assert.equal(cache.size, 0);
    remember("smk_a", caller(1));
    assert.deepEqual(cache.get("smk_a"), caller(1), "a lookup begun after forget() is remembered");
  });

  test("a lookup drops every expired token, not only the one asked for", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000 });
    remember("smk_a", caller(1));
    clock.now = 10_400;
    remember("smk_b", caller(2));
    clock.now = 10_900;
    remember("smk_c", caller(3));
    clock.now = 11_500;
    assert.equal(cache.get("smk_other"), undefined);
    assert.equal(cache.size, 1, "a and b are past their lifetime and gone");
    assert.deepEqual(cache.get("smk_c"), caller(3));
    clock.now = 11_900;
    assert.equal(cache.get("smk_c"), undefined);
    assert.equal(cache.size, 0);
  });

  test("a token set again lives from its new time", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000 });
    remember("smk_a", caller(1));
    clock.now = 10_500;
    remember("smk_b", caller(2));
    clock.now = 10_800;
    remember("smk_a", caller(1));
    clock.now = 11_600;
    assert.equal(cache.get("smk_b"), undefined);
    assert.deepEqual(cache.get("smk_a"), caller(1));
  });

  test("holds at most maxEntries, the oldest going first", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000, maxEntries: 2 });
    remember("smk_a", caller(1));
    clock.now = 10_001;
    remember("smk_b", caller(2));
    clock.now = 10_002;
    remember("smk_c", caller(3));
    clock.now = 10_003;
    assert.equal(cache.size, 2);
    assert.equal(cache.get("smk_a"), undefined);
    assert.deepEqual(cache.get("smk_b"), caller(2));
    assert.deepEqual(cache.get("smk_c"), caller(3));
  });

  test("a clock that went back trusts nothing made after it, and forget empties it", () => {
    const { cache, clock, remember } = cacheAt(10_000, { ttlMs: 1000 });
    remember("smk_a", caller(1));
    clock.now = 9_000;
    assert.equal(cache.get("smk_a"), undefined);
    clock.now = 10_000;
    remember("smk_b", caller(2));
    cache.forget();
    assert.equal(cache.size, 0);
    clock.now = 10_001;
    assert.equal(cache.get("smk_b"), undefined);
  });
});
