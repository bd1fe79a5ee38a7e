import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signInThroughSteam } from "../../src/domain/accounts/sign-in-through-steam.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import {
  assertionFor,
  completeSignIn,
  openSteamSignInWorld,
  steamAccount,
  steamRequest,
  type SteamSignInWorld,
} from "../support/steam-sign-in-world.ts";

const ENDPOINT = "https://steamcommunity.com/openid/login";

describe("sign in through Steam refuses what Steam did not vouch for", () => {
  let world: SteamSignInWorld;
  let account: SteamCredentials;
  let other: SteamCredentials;
  before(async () => {
    world = await openSteamSignInWorld();
    account = await steamAccount(world);
    other = await steamAccount(world);
  });
  after(() => world.close());

  async function usersNow(): Promise<number> {
    const { count } = await world.market.ctx.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async function assertRefused(fields: Record<string, string>, reason: RegExp, site?: string) {
    const before = await usersNow();
    const answer = await completeSignIn(world, fields, site);
    assert.equal(answer.statusCode, 401, answer.body);
    assert.match(answer.json().error, reason);
    assert.equal(answer.headers["set-cookie"], undefined);
    assert.equal(await usersNow(), before);
  }

  test("an assertion whose claimed id was swapped for another account's is not vouched for", async () => {
    const fields = await assertionFor(world, account);
    const claimed = `https://steamcommunity.com/openid/id/${other.platformid}`;
    await assertRefused(
      { ...fields, "openid.claimed_id": claimed, "openid.identity": claimed },
      /does not vouch/,
    );
  });

  test("a made-up signature is not vouched for", async () => {
    const fields = await assertionFor(world, account);
    await assertRefused({ ...fields, "openid.sig": Buffer.alloc(32).toString("base64") }, /does not vouch/);
  });

  test("an assertion signs in once: shown again it is refused", async () => {
    const fields = await assertionFor(world, account);
    const first = await completeSignIn(world, fields);
    assert.equal(first.statusCode, 200, first.body);
    await assertRefused(fields, /does not vouch|already used/);
  });

  test("a nonce the provider would vouch for again still signs in only once", async () => {
    const verified = { steamid: other.platformid, nonce: `${new Date().toISOString()}once` };
    const input = { ...verified, sessionTtlSeconds: 60, wallNow: new Date() };
    const first = await signInThroughSteam(world.market.ctx, input);
    assert.ok(first.ok);
    const replayed = await signInThroughSteam(world.market.ctx, input);
    assert.deepEqual(replayed.ok ? undefined : replayed.failure, {
      code: "Unauthorized",
      message: "Steam sign-in refused: openid.response_nonce was already used",
    });
  });

  test("an assertion returned to another site is refused here", async () => {
    const fields = await assertionFor(world, account, "elsewhere.test");
    await assertRefused(fields, /openid\.return_to is not this site's/);
  });

  test("a claimed id that is not Steam's form, or another provider's endpoint, is refused before asking", async () => {
    const fields = await assertionFor(world, account);
    const foreign = `https://steamcommunity.com.evil.test/openid/id/${account.platformid}`;
    await assertRefused(
      { ...fields, "openid.claimed_id": foreign, "openid.identity": foreign },
      /openid\.claimed_id is not a Steam id/,
    );
    await assertRefused(
      { ...fields, "openid.op_endpoint": "https://evil.test/openid/login" },
      /openid\.op_endpoint is not the provider's/,
    );
  });

  test("an assertion whose nonce is old, or that leaves return_to unsigned, is refused", async () => {
    const fields = await assertionFor(world, account);
    const nonce = fields["openid.response_nonce"] ?? "";
    const old = `${new Date(Date.now() - 10 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, "Z")}${nonce.slice(20)}`;
    await assertRefused({ ...fields, "openid.response_nonce": old }, /openid\.response_nonce is too old/);
    await assertRefused(
      { ...fields, "openid.signed": "signed,op_endpoint,claimed_id,identity,response_nonce,assoc_handle" },
      /openid\.return_to is not signed/,
    );
  });

  test("a body field that is not OpenID's is refused naming it", async () => {
    const answer = await completeSignIn(world, { nickname: "x" });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.match(answer.body, /nickname/);
  });

  test("Steam's check_authentication vouches for its own assertion once, for a changed one never", async () => {
    const fields = await assertionFor(world, account);
    const ask = (form: Record<string, string>) =>
      steamRequest(world, "POST", ENDPOINT, { ...form, "openid.mode": "check_authentication" });
    const changed = await ask({ ...fields, "openid.return_to": "http://elsewhere.test/signin" });
    assert.equal(changed.body, "ns:http://specs.openid.net/auth/2.0\nis_valid:false\n");
    assert.equal((await ask(fields)).body, "ns:http://specs.openid.net/auth/2.0\nis_valid:true\n");
    assert.equal((await ask(fields)).body, "ns:http://specs.openid.net/auth/2.0\nis_valid:false\n");
  });

  test("Steam's page refuses a return_to outside the realm the user is shown", async () => {
    const url = new URL(ENDPOINT);
    for (const [name, value] of Object.entries({
      "openid.ns": "http://specs.openid.net/auth/2.0",
      "openid.mode": "checkid_setup",
      "openid.claimed_id": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.identity": "http://specs.openid.net/auth/2.0/identifier_select",
      "openid.realm": "http://market.test",
      "openid.return_to": "http://market.test.elsewhere.test/signin",
    }))
      url.searchParams.set(name, value);
    const page = await steamRequest(world, "GET", url.toString());
    assert.equal(page.status, 400);
    assert.match(page.body, /openid\.return_to must be under openid\.realm/);
  });
});
