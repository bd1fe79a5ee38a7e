import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { EAuthTokenPlatformType, LoginApprover, LoginSession } from "steam-session";
import SteamTotp from "steam-totp";
import type { DomainContext } from "../../src/domain/context.ts";
import { checkPlatformCookies } from "../../src/platform/sandbox/platform-sessions.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

type SteamError = Error & { eresult?: number };

function authenticated(session: LoginSession): Promise<void> {
  return new Promise((resolve, reject) => {
    session.once("authenticated", () => resolve());
    session.once("error", reject);
    session.once("timeout", () => reject(new Error("login timed out")));
  });
}

describe("logins the mobile authenticator approves (QR, device confirmation) with steam-session, unchanged", () => {
  let world: SteamFaceWorld;
  let account: SteamCredentials;
  let other: SteamCredentials;
  /** The access token of the account's signed-in mobile app, which approves. */
  let mobileToken: string;
  before(async () => {
    world = await openSteamFaceWorld();
    const admin: DomainContext = { ...world.ctx, actor: { kind: "admin" } };
    const accounts: SteamCredentials[] = [];
    for (let index = 0; index < 2; index++) {
      accounts.push(await newSteamAccount(admin));
    }
    [account, other] = accounts as [SteamCredentials, SteamCredentials];
    const mobile = new LoginSession(EAuthTokenPlatformType.MobileApp, { agent: world.agent });
    const done = authenticated(mobile);
    await mobile.startWithCredentials({
      accountName: account.accountName,
      password: account.password,
      steamGuardCode: guardCode(account),
    });
    await done;
    mobileToken = mobile.accessToken;
  });
  after(() => world.close());

  const guardCode = (of: SteamCredentials) =>
    SteamTotp.generateAuthCode(of.sharedSecret, (world.ctx.clock.now().getTime() - Date.now()) / 1000);
  const approver = (sharedSecret = account.sharedSecret) =>
    new LoginApprover(mobileToken, sharedSecret, { agent: world.agent });
  const webSession = () => new LoginSession(EAuthTokenPlatformType.WebBrowser, { agent: world.agent });

  test("a QR login approved by the account's authenticator signs that account in", async () => {
    const session = webSession();
    let remote = false;
    session.on("remoteInteraction", () => (remote = true));
    const started = await session.startWithQR();
    assert.equal(started.actionRequired, true);
    assert.deepEqual(
      started.validActions?.map((action) => action.type),
      [4],
    );
    assert.match(started.qrChallengeUrl ?? "", /^https:\/\/s\.team\/q\/1\/\d+$/);
    const done = authenticated(session);
    await approver().approveAuthSession({ qrChallengeUrl: started.qrChallengeUrl ?? "", approve: true });
    await done;
    assert.equal(session.steamID.getSteamID64(), account.platformid);
    assert.equal(session.accountName, account.accountName);
    assert.equal(remote, true);
    const cookies = await session.getWebCookies();
    const login = cookies.find(
      (cookie) => cookie.startsWith("steamLoginSecure=") && cookie.includes("Domain=steamcommunity.com"),
    );
    const value = login?.slice("steamLoginSecure=".length).split(";")[0] ?? "";
    assert.equal(
      await checkPlatformCookies(world.ctx, account.platformid, [
        { domain: "steamcommunity.com", key: "steamLoginSecure", value },
      ]),
      "valid",
    );
  });

  test("a denied QR login ends: the next poll is FileNotFound (9)", async () => {
    const session = webSession();
    const started = await session.startWithQR();
    const done = authenticated(session);
    await approver().approveAuthSession({ qrChallengeUrl: started.qrChallengeUrl ?? "", approve: false });
    await assert.rejects(done, (error: SteamError) => error.eresult === 9);
  });

  test("an approval signed with another secret is InvalidSignature (121), and the login still waits", async () => {
    const session = webSession();
    const started = await session.startWithQR();
    const url = started.qrChallengeUrl ?? "";
    await assert.rejects(
      approver(randomBytes(20).toString("base64")).approveAuthSession({ qrChallengeUrl: url, approve: true }),
      (error: SteamError) => error.eresult === 121,
    );
    const done = authenticated(session);
    await approver().approveAuthSession({ qrChallengeUrl: url, approve: true });
    await done;
    // A session is answered once.
    await assert.rejects(
      approver().approveAuthSession({ qrChallengeUrl: url, approve: true }),
      (error: SteamError) => error.eresult === 29,
    );
  });

  test("a credential login waits for a code or the device confirmation, and the authenticator's approval passes it", async () => {
    const session = webSession();
    let clientId = "";
    session.on("debug", (...args: unknown[]) => {
      const response = args[1] as { clientId?: string } | undefined;
      if (args[0] === "start session response" && response?.clientId) clientId = response.clientId;
    });
    const started = await session.startWithCredentials({
      accountName: account.accountName,
      password: account.password,
    });
    assert.deepEqual(
      started.validActions?.map((action) => action.type),
      [3, 4],
    );
    assert.match(clientId, /^\d+$/);
    const done = authenticated(session);
    await approver().approveAuthSession({ qrChallengeUrl: `https://s.team/q/1/${clientId}`, approve: true });
    await done;
    assert.equal(session.steamID.getSteamID64(), account.platformid);
    assert.ok(session.refreshToken);
  });

  test("an authenticator cannot approve another account's credential login: AccessDenied (15)", async () => {
    const session = webSession();
    let clientId = "";
    session.on("debug", (...args: unknown[]) => {
      const response = args[1] as { clientId?: string } | undefined;
      if (args[0] === "start session response" && response?.clientId) clientId = response.clientId;
    });
    await session.startWithCredentials({ accountName: other.accountName, password: other.password });
    await assert.rejects(
      approver().approveAuthSession({ qrChallengeUrl: `https://s.team/q/1/${clientId}`, approve: true }),
      (error: SteamError) => error.eresult === 15,
    );
    const done = authenticated(session);
    await session.submitSteamGuardCode(guardCode(other));
    await done;
    assert.equal(session.steamID.getSteamID64(), other.platformid);
  });
});
