import assert from "node:assert/strict";
import { argon2Sync, randomBytes, scryptSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** A hash of the earlier scheme, as a user created before argon2id has it: `scrypt$N$r$p$salt$hash`. */
function scryptString(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("sign-in upgrades an earlier password hash", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const login = (nickname: string, password: string) =>
    t.app.inject({ method: "POST", url: "/account/api/login", payload: { nickname, password } });
  const storedHash = async (userId: string) =>
    (
      await t.ctx.db
        .selectFrom("users")
        .select("password_hash")
        .where("user_id", "=", Number(userId))
        .executeTakeFirstOrThrow()
    ).password_hash;
  // Rows written before the change hold scrypt hashes; no verb makes one any more.
  const setStoredHash = (userId: string, hash: string) =>
    t.ctx.db
      .updateTable("users")
      .set({ password_hash: hash })
      .where("user_id", "=", Number(userId))
      .execute();

  test("a user with an scrypt hash signs in, and the hash is then argon2id at the current parameters", async () => {
    const user = await t.createUser({ nickname: "olduser", password: "old horse" });
    const legacy = scryptString("old horse");
    await setStoredHash(user.userId, legacy);

    assert.equal((await login("olduser", "old horsf")).statusCode, 401);
    assert.equal(await storedHash(user.userId), legacy, "a wrong password changes nothing");

    assert.equal((await login("olduser", "old horse")).statusCode, 200);
    const upgraded = await storedHash(user.userId);
    const match = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(upgraded);
    assert.ok(match, upgraded);
    const expected = argon2Sync("argon2id", {
      message: "old horse",
      nonce: Buffer.from(match[1]!, "base64"),
      memory: 19456,
      passes: 2,
      parallelism: 1,
      tagLength: 32,
    });
    assert.deepEqual(Buffer.from(match[2]!, "base64"), expected);

    assert.equal((await login("olduser", "old horse")).statusCode, 200);
    assert.equal(await storedHash(user.userId), upgraded, "a current hash is kept as it is");
  });

  test("stored hashes asking for 1 TiB (scrypt N=2^30) or 4 GiB (argon2id) are corrupt: sign-in answers 401", async () => {
    const user = await t.createUser({ nickname: "corrupted", password: "password1" });
    for (const corrupt of [
      `scrypt$1073741824$8$1$${"A".repeat(22)}$${"A".repeat(43)}`,
      `$argon2id$v=19$m=4194304,t=2,p=1$${"A".repeat(22)}$${"A".repeat(43)}`,
    ]) {
      await setStoredHash(user.userId, corrupt);
      const response = await login("corrupted", "password1");
      assert.equal(response.statusCode, 401, corrupt);
      assert.equal(response.json().code, "Unauthorized");
      assert.equal(await storedHash(user.userId), corrupt);
    }
  });
});
