import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import { TOKEN_CACHE_TTL_MS, TokenCache } from "../../src/domain/token-cache.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";
import { testPlatform } from "../support/test-context.ts";

/**
 * The bound docs/design/security.md#the-revocation-bound promises: a revocation holds everywhere 1 s after its answer,
 * because a cached token lives 1 s from the moment the lookup that cached it began.
 */
const BOUND_MS = TOKEN_CACHE_TTL_MS;

/**
 * Two instances on one database, each with its own token cache, and no announcement between them:
 * what a lost change notification leaves. The bound must hold on the lifetime of a cached token
 * alone. The other instance's cache runs on a clock the test moves, so the bound is checked at its
 * edges rather than raced against the machine's load.
 */
describe("a revoked token, when the other instance hears nothing", () => {
  let t: TestApp;
  let other: FastifyInstance;
  let now = 0;
  before(async () => {
    t = await createTestApp();
    other = await buildApp({
      database: t.database,
      clock: t.clock,
      ...testPlatform(),
      sandbox: { clock: t.clock, adminToken: ADMIN_TOKEN },
      tokenCache: new TokenCache({ now: () => now }),
    });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  const balanceOnOther = async (token: string) =>
    (
      await other.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  test("is refused by the revoking instance at once and by the other once the cached token's 1 s ran out", async () => {
    const user = await t.createUser();
    now = 0;
    assert.equal(await balanceOnOther(user.token), 200, "the other instance now remembers the token");

    const revoked = await t.admin("DELETE", `/sandbox/tokens/${user.tokenId}`);
    assert.equal(revoked.statusCode, 200);
    assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 401);

    now = BOUND_MS - 1;
    assert.equal(await balanceOnOther(user.token), 200, "within the bound the other still remembers it");
    now = BOUND_MS;
    assert.equal(await balanceOnOther(user.token), 401, "at the bound the other reads the table again");
    now = BOUND_MS + 1;
    assert.equal(await balanceOnOther(user.token), 401);
  });
});
