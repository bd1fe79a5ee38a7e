import assert from "node:assert/strict";
import { constants, createPublicKey, publicEncrypt } from "node:crypto";
import { request, type Agent } from "node:https";
import { after, before, describe, test } from "node:test";
import type { OffsetClock } from "../../src/domain/clock.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { resetWorld } from "../../src/domain/sandbox/reset-world.ts";
import { SecretBox } from "../../src/domain/secret-box.ts";
import { PasswordKey } from "../../src/steam-face/password-key.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";
import {
  assertionFor,
  completeSignIn,
  openSteamSignInWorld,
  steamAccount,
  steamRequest,
  type SteamSignInWorld,
} from "../support/steam-sign-in-world.ts";

const API = "https://api.steampowered.com/IAuthenticationService";
const OPENID = "https://steamcommunity.com/openid/login";

interface RsaKey {
  publickey_mod: string;
  publickey_exp: string;
  timestamp: string;
}

/** A request through a face, with a form body when given (steampy's plain-field form). */
function send(
  agent: Agent,
  url: string,
  form?: Record<string, string>,
): Promise<{ eresult: unknown; text: string }> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        agent,
        method: form ? "POST" : "GET",
        headers: form ? { "content-type": "application/x-www-form-urlencoded" } : {},
      },
      (answer) => {
        let text = "";
        answer.on("data", (chunk: Buffer) => (text += chunk));
        answer.on("end", () => resolve({ eresult: answer.headers["x-eresult"], text }));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

/** An IAuthenticationService call: its `X-eresult` and JSON `response`. */
async function call(agent: Agent, url: string, form?: Record<string, string>) {
  const answer = await send(agent, url, form);
  return { eresult: answer.eresult, response: JSON.parse(answer.text).response as unknown };
}

function encryptPassword(key: RsaKey, password: string): string {
  const publicKey = createPublicKey({
    key: {
      kty: "RSA",
      n: Buffer.from(key.publickey_mod, "hex").toString("base64url"),
      e: Buffer.from(key.publickey_exp, "hex").toString("base64url"),
    },
    format: "jwk",
  });
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(password),
  ).toString("base64");
}

describe("two Steam face instances on one database hold one password RSA key", () => {
  let first: SteamFaceWorld;
  let second: SteamFaceWorld;
  let account: SteamCredentials;
  before(async () => {
    first = await openSteamFaceWorld();
    second = await openSteamFaceWorld({ on: { ctx: first.ctx, database: first.database } });
    const admin: DomainContext = { ...first.ctx, actor: { kind: "admin" } };
    account = await newSteamAccount(admin);
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  const keyFrom = async (world: SteamFaceWorld) =>
    (await call(world.agent, `${API}/GetPasswordRSAPublicKey/v1?account_name=${account.accountName}`))
      .response as RsaKey;

  test("both asked first at once, both hand out the same key, kept sealed in the database", async () => {
    const [fromFirst, fromSecond] = await Promise.all([keyFrom(first), keyFrom(second)]);
    assert.deepEqual(fromSecond, fromFirst);
    const rows = await first.ctx.db.selectFrom("sandbox_steam_face_keys").selectAll().execute();
    const stored = rows.find((row) => row.name === "password_rsa");
    assert.ok(stored);
    assert.ok(stored.sealed.startsWith("v1."), "sealed with the secret box");
    assert.ok(!stored.sealed.includes("PRIVATE KEY"));
  });

  test("a login that took the key from one instance begins on the other", async () => {
    const key = await keyFrom(first);
    const begin = await call(second.agent, `${API}/BeginAuthSessionViaCredentials/v1`, {
      persistence: "1",
      account_name: account.accountName,
      encrypted_password: encryptPassword(key, account.password),
      encryption_timestamp: key.timestamp,
    });
    assert.equal(begin.eresult, "1");
    assert.equal((begin.response as { steamid: string }).steamid, account.platformid);
  });

  test("a password under a key of another timestamp is still refused as a wrong one", async () => {
    const key = await keyFrom(second);
    const begin = await call(first.agent, `${API}/BeginAuthSessionViaCredentials/v1`, {
      account_name: account.accountName,
      encrypted_password: encryptPassword(key, account.password),
      encryption_timestamp: String(BigInt(key.timestamp) - 1n),
    });
    assert.equal(begin.eresult, "5");
  });
  test("an instance whose SECRET_KEY cannot open the key replaces it, and the replacement opens", async () => {
    const otherBox: DomainContext = { ...first.ctx, secretBox: new SecretBox(SecretBox.generateKey()) };
    const held = await keyFrom(first);
    const [one, two] = await Promise.all([PasswordKey.load(otherBox), PasswordKey.load(otherBox)]);
    assert.equal(one.modulusHex, two.modulusHex);
    assert.notEqual(one.modulusHex, held.publickey_mod);
    assert.equal((await PasswordKey.load(otherBox)).modulusHex, one.modulusHex);
  });

  test("a sandbox reset keeps the key the running instances hold", async () => {
    const before = await first.ctx.db.selectFrom("sandbox_steam_face_keys").selectAll().execute();
    const admin: DomainContext = { ...first.ctx, actor: { kind: "admin" } };
    const reset = await resetWorld(admin, { clock: first.ctx.clock as OffsetClock });
    assert.ok(reset.ok);
    assert.ok(!reset.value.tables.includes("sandbox_steam_face_keys"));
    assert.deepEqual(await first.ctx.db.selectFrom("sandbox_steam_face_keys").selectAll().execute(), before);
  });
});

describe("two Steam face instances on one database vouch for each other's OpenID assertions", () => {
  let world: SteamSignInWorld;
  let second: SteamFaceWorld;
  let account: SteamCredentials;
  before(async () => {
    world = await openSteamSignInWorld();
    second = await openSteamFaceWorld({ on: { ctx: world.market.ctx, database: world.market.database } });
    account = await steamAccount(world);
  });
  after(async () => {
    await second.close();
    await world.close();
  });

  test("a sign-in signed by one instance whose check_authentication reaches the other signs in", async () => {
    const fields = await assertionFor(world, account);
    world.marketAsksThrough(second.agent);
    const signedIn = await completeSignIn(world, fields);
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    assert.equal(signedIn.json().data.created, true);
    await world.market.assertLedger();
  });

  test("an assertion is vouched for once among all the instances", async () => {
    const fields = await assertionFor(world, account);
    const form = { ...fields, "openid.mode": "check_authentication" };
    const askSecond = (await send(second.agent, OPENID, form)).text;
    assert.equal(askSecond, "ns:http://specs.openid.net/auth/2.0\nis_valid:true\n");
    const askFirst = await steamRequest(world, "POST", OPENID, form);
    assert.equal(askFirst.body, "ns:http://specs.openid.net/auth/2.0\nis_valid:false\n");
  });
});
