import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { EAuthTokenPlatformType, LoginSession } from "steam-session";
import SteamTotp from "steam-totp";
import type { OffsetClock } from "../../src/domain/clock.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { checkPlatformCookies } from "../../src/platform/sandbox/platform-sessions.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

/** The cookie's value as steam-session hands it out: `name=value; Path=/; ...; Domain=host`. */
function cookieOf(cookies: string[], name: string, domain: string): string | undefined {
  const cookie = cookies.find((entry) => entry.startsWith(`${name}=`) && entry.includes(`Domain=${domain}`));
  return cookie?.slice(name.length + 1).split(";")[0];
}

function authenticated(session: LoginSession): Promise<void> {
  return new Promise((resolve, reject) => {
    session.once("authenticated", () => resolve());
    session.once("error", reject);
    session.once("timeout", () => reject(new Error("login timed out")));
  });
}

describe("logging in through the Steam face with steam-session, unchanged", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let account: SteamCredentials;
  before(async () => {
    world = await openSteamFaceWorld();
    admin = { ...world.ctx, actor: { kind: "admin" } };
    account = await newSteamAccount(admin);
  });
  after(() => world.close());

  const newSession = () => new LoginSession(EAuthTokenPlatformType.WebBrowser, { agent: world.agent });
  const guardCode = () =>
    SteamTotp.generateAuthCode(account.sharedSecret, (world.ctx.clock.now().getTime() - Date.now()) / 1000);

  test("password and Steam Guard code give web cookies that are a live session of the account", async () => {
    const session = newSession();
    const done = authenticated(session);
    const started = await session.startWithCredentials({
      accountName: account.accountName,
      password: account.password,
      steamGuardCode: guardCode(),
    });
    assert.equal(started.actionRequired, false);
    await done;
    assert.equal(session.steamID.getSteamID64(), account.platformid);
    assert.equal(session.accountName, account.accountName);
    const cookies = await session.getWebCookies();
    for (const host of ["steamcommunity.com", "store.steampowered.com"]) {
      const value = cookieOf(cookies, "steamLoginSecure", host);
      assert.ok(value, `steamLoginSecure on ${host}`);
      assert.ok(decodeURIComponent(value).startsWith(`${account.platformid}||`));
      // One world: the cookie is a session the sandbox platform (and so the marketplace) accepts.
      assert.equal(
        await checkPlatformCookies(world.ctx, account.platformid, [
          { domain: "steamcommunity.com", key: "steamLoginSecure", value },
        ]),
        "valid",
      );
    }
    assert.ok(cookieOf(cookies, "sessionid", "steamcommunity.com"));
  });

  test("a refresh token derives new access tokens (GenerateAccessTokenForApp)", async () => {
    const session = newSession();
    const done = authenticated(session);
    await session.startWithCredentials({
      accountName: account.accountName,
      password: account.password,
      steamGuardCode: guardCode(),
    });
    await done;
    const first = session.accessToken;
    await session.refreshAccessToken();
    assert.notEqual(session.accessToken, first);
    assert.equal(
      JSON.parse(Buffer.from(session.accessToken.split(".")[1] ?? "", "base64url").toString()).sub,
      account.platformid,
    );
  });

  test("a wrong password is InvalidPassword (EResult 5)", async () => {
    await assert.rejects(
      newSession().startWithCredentials({
        accountName: account.accountName,
        password: `${account.password}x`,
      }),
      (error: Error & { eresult?: number }) => error.eresult === 5,
    );
  });

  test("a wrong Steam Guard code asks for the code (or a device confirmation), and submitting it again is TwoFactorCodeMismatch (88)", async () => {
    const session = newSession();
    const wrong = guardCode() === "22222" ? "33333" : "22222";
    const started = await session.startWithCredentials({
      accountName: account.accountName,
      password: account.password,
      steamGuardCode: wrong,
    });
    assert.equal(started.actionRequired, true);
    // The code, or the mobile authenticator's approval (steam-mobile-login.test.ts).
    assert.deepEqual(
      started.validActions?.map((action) => action.type),
      [3, 4],
    );
    await assert.rejects(
      session.submitSteamGuardCode(wrong),
      (error: Error & { eresult?: number }) => error.eresult === 88,
    );
    const done = authenticated(session);
    await session.submitSteamGuardCode(guardCode());
    await done;
    assert.ok(session.refreshToken);
    session.cancelLoginAttempt();
  });
  test("once the sandbox clock is moved, a code for the bot's own clock and one for the sandbox's both sign in; a code for neither is refused", async () => {
    const clock = world.ctx.clock as OffsetClock;
    const before = clock.offsetMs;
    clock.setOffset(before + 8 * 24 * 3600 * 1000);
    try {
      // steam-totp without an offset: the bot's wall clock, eight days behind the sandbox's.
      for (const code of [SteamTotp.generateAuthCode(account.sharedSecret), guardCode()]) {
        const session = newSession();
        const done = authenticated(session);
        const started = await session.startWithCredentials({
          accountName: account.accountName,
          password: account.password,
          steamGuardCode: code,
        });
        assert.equal(started.actionRequired, false);
        await done;
        session.cancelLoginAttempt();
      }
      const session = newSession();
      const stale = SteamTotp.generateAuthCode(account.sharedSecret, -3600);
      const started = await session.startWithCredentials({
        accountName: account.accountName,
        password: account.password,
        steamGuardCode: stale,
      });
      assert.equal(started.actionRequired, true);
      await assert.rejects(
        session.submitSteamGuardCode(stale),
        (error: Error & { eresult?: number }) => error.eresult === 88,
      );
      session.cancelLoginAttempt();
    } finally {
      clock.setOffset(before);
    }
  });
});
