import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signInThroughSteam } from "../../src/domain/accounts/sign-in-through-steam.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { setCookieValue } from "../support/test-app.ts";
import {
  assertionFor,
  completeSignIn,
  guardCodeNow,
  hiddenFields,
  openSteamSignInWorld,
  steamAccount,
  steamRequest,
  type SteamSignInWorld,
} from "../support/steam-sign-in-world.ts";

const SITE = "market.test";

describe("sign in through Steam: the face's OpenID provider and the marketplace's relying party", () => {
  let world: SteamSignInWorld;
  let account: SteamCredentials;
  before(async () => {
    world = await openSteamSignInWorld();
    account = await steamAccount(world);
  });
  after(() => world.close());

  test("the start answers Steam's checkid_setup with this site's sign-in page as return_to", async () => {
    const started = await world.market.app.inject({
      method: "GET",
      url: "/account/api/steam/login",
      headers: { host: SITE },
    });
    const url = new URL(started.json().data.redirect_url);
    assert.equal(`${url.origin}${url.pathname}`, "https://steamcommunity.com/openid/login");
    assert.equal(url.searchParams.get("openid.mode"), "checkid_setup");
    assert.equal(url.searchParams.get("openid.return_to"), `http://${SITE}/signin`);
    assert.equal(url.searchParams.get("openid.realm"), `http://${SITE}`);
  });

  test("Steam's sign-in page asks the login name, password and Steam Guard code", async () => {
    const fields = await assertionFor(world, account);
    assert.equal(fields["openid.mode"], "id_res");
    assert.equal(fields["openid.claimed_id"], `https://steamcommunity.com/openid/id/${account.platformid}`);
    assert.equal(fields["openid.op_endpoint"], "https://steamcommunity.com/openid/login");
    assert.match(fields["openid.response_nonce"] ?? "", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z./);
  });

  test("discovery names the endpoint, as Steam's XRDS does, for the provider and each claimed id", async () => {
    for (const [path, type] of [
      ["/openid", "http://specs.openid.net/auth/2.0/server"],
      [`/openid/id/${account.platformid}`, "http://specs.openid.net/auth/2.0/signon"],
    ] as const) {
      const answer = await steamRequest(world, "GET", `https://steamcommunity.com${path}`);
      assert.equal(answer.status, 200);
      assert.match(answer.body, new RegExp(`<Type>${type}</Type>`));
      assert.match(answer.body, /<URI>https:\/\/steamcommunity\.com\/openid\/login<\/URI>/);
    }
  });

  test("a wrong password or Steam Guard code keeps the browser on Steam's page", async () => {
    const started = await world.market.app.inject({ method: "GET", url: "/account/api/steam/login" });
    const page = await steamRequest(world, "GET", started.json().data.redirect_url);
    const hidden = hiddenFields(page.body);
    const wrongPassword = await steamRequest(world, "POST", "https://steamcommunity.com/openid/login", {
      ...hidden,
      username: account.accountName,
      password: `${account.password}x`,
      twofactorcode: guardCodeNow(world, account),
    });
    assert.equal(wrongPassword.status, 401);
    assert.match(wrongPassword.body, /account name or password/);
    const wrongCode = await steamRequest(world, "POST", "https://steamcommunity.com/openid/login", {
      ...hidden,
      username: account.accountName,
      password: account.password,
      twofactorcode: "AAAAA",
    });
    assert.equal(wrongCode.status, 401);
    assert.match(wrongCode.body, /Steam Guard code/);
  });

  test("the first sign-in makes the account and binds the Steam account; the next signs in to it", async () => {
    const first = await completeSignIn(world, await assertionFor(world, account));
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.created, true);
    assert.equal(first.json().data.nickname, `steam-${account.platformid}`);
    const session = setCookieValue(first.headers["set-cookie"], "session");
    assert.ok(session);
    const info = await world.market.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { cookie: `session=${session}` },
    });
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(info.json().data.steamid, account.platformid);
    assert.equal(info.json().data.user_id, first.json().data.user_id);

    const again = await completeSignIn(world, await assertionFor(world, account));
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().data.created, false);
    assert.equal(again.json().data.user_id, first.json().data.user_id);
    await world.market.assertLedger();
  });

  test("two first sign-ins of one Steam account at once make one account, both signed in to it", async () => {
    const fresh = await steamAccount(world);
    const signIn = (nonce: string) =>
      signInThroughSteam(world.market.ctx, {
        steamid: fresh.platformid,
        nonce: `${new Date().toISOString()}${nonce}`,
        sessionTtlSeconds: 60,
        wallNow: new Date(),
      });
    const answers = await Promise.all([signIn("a"), signIn("b")]);
    const signedIn = answers.map((answer) =>
      answer.ok ? answer.value : assert.fail(answer.failure.message),
    );
    assert.equal(signedIn[0]!.userId, signedIn[1]!.userId);
    assert.deepEqual(signedIn.map((value) => value.created).sort(), [false, true]);
  });
});
