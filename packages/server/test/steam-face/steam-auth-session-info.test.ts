import assert from "node:assert/strict";
import { request } from "node:https";
import { after, before, describe, test } from "node:test";
import { EAuthTokenPlatformType, LoginApprover, LoginSession } from "steam-session";
import { getProtoForMethod } from "steam-session/dist/protobufs.js";
import SteamTotp from "steam-totp";
import type { DomainContext } from "../../src/domain/context.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

type SteamError = Error & { eresult?: number };
const API = "https://api.steampowered.com/IAuthenticationService";

/**
 * What the mobile authenticator reads of a pending login before approving it
 * (docs/design/steam-face.md#login): `GetAuthSessionInfo` through steam-session's
 * `LoginApprover` unchanged (protobuf), and both calls in the plain-field JSON form.
 */
describe("GetAuthSessionInfo and GetAuthSessionsForAccount, as the mobile app reads a pending login", () => {
  let world: SteamFaceWorld;
  let account: SteamCredentials;
  let other: SteamCredentials;
  /** The access tokens of each account's signed-in mobile app, and of the first one's web session. */
  let mobileToken: string;
  let otherMobileToken: string;
  let webToken: string;
  before(async () => {
    world = await openSteamFaceWorld();
    const admin: DomainContext = { ...world.ctx, actor: { kind: "admin" } };
    const accounts: SteamCredentials[] = [];
    for (let index = 0; index < 2; index++) {
      accounts.push(await newSteamAccount(admin));
    }
    [account, other] = accounts as [SteamCredentials, SteamCredentials];
    mobileToken = await signIn(account, EAuthTokenPlatformType.MobileApp);
    otherMobileToken = await signIn(other, EAuthTokenPlatformType.MobileApp);
    webToken = await signIn(account, EAuthTokenPlatformType.WebBrowser);
  });
  after(() => world.close());

  async function signIn(of: SteamCredentials, platform: EAuthTokenPlatformType): Promise<string> {
    const session = new LoginSession(platform, { agent: world.agent });
    const done = authenticated(session);
    await session.startWithCredentials({
      accountName: of.accountName,
      password: of.password,
      steamGuardCode: SteamTotp.generateAuthCode(of.sharedSecret),
    });
    await done;
    return session.accessToken;
  }

  /** A credential login waiting for its guard, and its client id (which steam-session only tells its debug listeners). */
  async function pendingCredentialLogin(of: SteamCredentials) {
    const session = new LoginSession(EAuthTokenPlatformType.WebBrowser, { agent: world.agent });
    let clientId = "";
    session.on("debug", (...args: unknown[]) => {
      const response = args[1] as { clientId?: string } | undefined;
      if (args[0] === "start session response" && response?.clientId) clientId = response.clientId;
    });
    await session.startWithCredentials({ accountName: of.accountName, password: of.password });
    assert.match(clientId, /^\d+$/);
    return { session, clientId, url: `https://s.team/q/1/${clientId}` };
  }

  test("a QR login: the approver reads where and what asks, the login hears of it (remoteInteraction), then it is approved", async () => {
    const session = new LoginSession(EAuthTokenPlatformType.WebBrowser, { agent: world.agent });
    const interacted = new Promise<void>((resolve) => session.once("remoteInteraction", () => resolve()));
    const started = await session.startWithQR();
    const approver = new LoginApprover(mobileToken, account.sharedSecret, { agent: world.agent });
    const info = await approver.getAuthSessionInfo(started.qrChallengeUrl ?? "");
    assert.match(info.ip, /127\.0\.0\.1$/);
    assert.deepEqual(info.location, { geoloc: "47.61,-122.20", city: "Bellevue", state: "Washington" });
    assert.equal(info.platformType, EAuthTokenPlatformType.WebBrowser);
    assert.match(
      info.deviceFriendlyName,
      /Mozilla/,
      "steam-session names a web login's device by its user agent",
    );
    assert.equal(info.version, 1);
    // The approver's own mobile app signed in from this address before: EAuthSessionSecurityHistory 1.
    assert.equal(info.loginHistory, 1);
    assert.equal(info.locationMismatch, false);
    assert.equal(info.highUsageLogin, false);
    assert.equal(info.requestedPersistence, 1);
    await interacted;
    const done = authenticated(session);
    await approver.approveAuthSession({ qrChallengeUrl: started.qrChallengeUrl ?? "", approve: true });
    await done;
    assert.equal(session.steamID.getSteamID64(), account.platformid);
  });

  test("a credential login: GetAuthSessionsForAccount lists it for the account's app (protobuf and JSON), which reads and approves it", async () => {
    const { session, clientId, url } = await pendingCredentialLogin(account);
    const { response: listResponse } = getProtoForMethod("Authentication", "GetAuthSessionsForAccount");
    const raw = await call(`${API}/GetAuthSessionsForAccount/v1/?access_token=${mobileToken}`, {
      input_protobuf_encoded: "",
    });
    assert.equal(raw.headers["x-eresult"], "1");
    const listed = listResponse.toObject(listResponse.decode(raw.body), { longs: String }) as {
      client_ids: string[];
    };
    assert.deepEqual(listed.client_ids, [clientId]);
    const json = await call(`${API}/GetAuthSessionsForAccount/v1/?access_token=${mobileToken}`);
    assert.deepEqual(JSON.parse(json.body.toString("utf8")), { response: { client_ids: [clientId] } });
    // The other account's app sees none of it.
    const others = await call(`${API}/GetAuthSessionsForAccount/v1/?access_token=${otherMobileToken}`);
    assert.deepEqual(JSON.parse(others.body.toString("utf8")), { response: { client_ids: [] } });

    const plain = await call(
      `${API}/GetAuthSessionInfo/v1/?access_token=${mobileToken}&client_id=${clientId}`,
    );
    assert.equal(plain.headers["x-eresult"], "1");
    const { response } = JSON.parse(plain.body.toString("utf8")) as { response: Record<string, unknown> };
    assert.equal(response.platform_type, 2);
    assert.equal(response.country, "US");
    assert.equal(response.version, 1);
    assert.equal(response.requestor_location_mismatch, false);

    const done = authenticated(session);
    await new LoginApprover(mobileToken, account.sharedSecret, { agent: world.agent }).approveAuthSession({
      qrChallengeUrl: url,
      approve: true,
    });
    await done;
    const after = await call(`${API}/GetAuthSessionsForAccount/v1/?access_token=${mobileToken}`);
    assert.deepEqual(JSON.parse(after.body.toString("utf8")), { response: { client_ids: [] } });
  });

  test("a login from an address the account never passed a login from: NoPriorHistory (2)", async () => {
    const { session, clientId, url } = await pendingCredentialLogin(account);
    await world.ctx.db
      .updateTable("sandbox_steam_auth_sessions")
      .set({ requestor_ip: "203.0.113.9" })
      .where("client_id", "=", clientId)
      .execute();
    const info = await new LoginApprover(mobileToken, account.sharedSecret, {
      agent: world.agent,
    }).getAuthSessionInfo(url);
    assert.equal(info.ip, "203.0.113.9");
    assert.equal(info.loginHistory, 2);
    session.cancelLoginAttempt();
  });

  test("only the account's own mobile app reads its login: another account's, a web token or none is AccessDenied (15); an unknown id FileNotFound (9)", async () => {
    const { session, clientId, url } = await pendingCredentialLogin(account);
    await assert.rejects(
      new LoginApprover(otherMobileToken, other.sharedSecret, { agent: world.agent }).getAuthSessionInfo(url),
      (error: SteamError) => error.eresult === 15,
    );
    for (const token of [webToken, ""]) {
      const refused = await call(`${API}/GetAuthSessionInfo/v1/?access_token=${token}&client_id=${clientId}`);
      assert.equal(refused.headers["x-eresult"], "15");
      assert.deepEqual(JSON.parse(refused.body.toString("utf8")), { response: {} });
      const list = await call(`${API}/GetAuthSessionsForAccount/v1/?access_token=${token}`);
      assert.equal(list.headers["x-eresult"], "15");
    }
    await assert.rejects(
      new LoginApprover(mobileToken, account.sharedSecret, { agent: world.agent }).getAuthSessionInfo(
        "https://s.team/q/1/123456789",
      ),
      (error: SteamError) => error.eresult === 9,
    );
    const malformed = await call(`${API}/GetAuthSessionInfo/v1/?access_token=${mobileToken}&client_id=x`);
    assert.equal(malformed.headers["x-eresult"], "8");
    session.cancelLoginAttempt();
  });

  /** One call with the face's agent: a form POST when `form` is given, else a GET. */
  function call(
    url: string,
    form?: Record<string, string>,
  ): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    return new Promise((resolve, reject) => {
      const sent = request(
        url,
        {
          agent: world.agent,
          method: form ? "POST" : "GET",
          headers: form ? { "content-type": "application/x-www-form-urlencoded" } : {},
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        },
      );
      sent.on("error", reject);
      sent.end(body);
    });
  }
});

function authenticated(session: LoginSession): Promise<void> {
  return new Promise((resolve, reject) => {
    session.once("authenticated", () => resolve());
    session.once("error", reject);
    session.once("timeout", () => reject(new Error("login timed out")));
  });
}
