import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TokenCache, type CachedToken } from "../../src/domain/tokens/token-cache.ts";

const caller = (userId: number): CachedToken => ({
  userId,
  tokenId: userId * 10,
  accessLevel: "developer",
  lastUsedAt: null,
});

describe("the token cache", () => {
  test("answers a remembered token until its lifetime is over, then forgets it", () => {
    const cache = new TokenCache({ ttlMs: 1000 });
    cache.set("smk_a", caller(1), 10_000);
    assert.deepEqual(cache.get("smk_a", 10_999), caller(1));
    assert.equal(cache.get("smk_a", 11_000), undefined);
    assert.equal(cache.size, 0);
  });

  test("a lookup drops every expired token, not only the one asked for", () => {
    const cache = new TokenCache({ ttlMs: 1000 });
    cache.set("smk_a", caller(1), 10_000);
    cache.set("smk_b", caller(2), 10_400);
    cache.set("smk_c", caller(3), 10_900);
    assert.equal(cache.get("smk_other", 11_500), undefined);
    assert.equal(cache.size, 1, "a and b are past their lifetime and gone");
    assert.deepEqual(cache.get("smk_c", 11_500), caller(3));
    assert.equal(cache.get("smk_c", 11_900), undefined);
    assert.equal(cache.size, 0);
  });

  test("a token set again lives from its new time", () => {
    const cache = new TokenCache({ ttlMs: 1000 });
    cache.set("smk_a", caller(1), 10_000);
    cache.set("smk_b", caller(2), 10_500);
    cache.set("smk_a", caller(1), 10_800);
    assert.equal(cache.get("smk_b", 11_600), undefined);
    assert.deepEqual(cache.get("smk_a", 11_600), caller(1));
  });

  test("holds at most maxEntries, the oldest going first", () => {
    const cache = new TokenCache({ maxEntries: 2, ttlMs: 1000 });
    cache.set("smk_a", caller(1), 10_000);
    cache.set("smk_b", caller(2), 10_001);
    cache.set("smk_c", caller(3), 10_002);
    assert.equal(cache.size, 2);
    assert.equal(cache.get("smk_a", 10_003), undefined);
    assert.deepEqual(cache.get("smk_b", 10_003), caller(2));
    assert.deepEqual(cache.get("smk_c", 10_003), caller(3));
  });

  test("a clock that went back trusts nothing made after it, and forget empties it", () => {
    const cache = new TokenCache({ ttlMs: 1000 });
    cache.set("smk_a", caller(1), 10_000);
    assert.equal(cache.get("smk_a", 9_000), undefined);
    cache.set("smk_b", caller(2), 10_000);
    cache.forget();
    assert.equal(cache.size, 0);
    assert.equal(cache.get("smk_b", 10_001), undefined);
  });
});
