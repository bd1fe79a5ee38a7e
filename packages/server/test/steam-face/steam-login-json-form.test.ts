import assert from "node:assert/strict";
import { constants, createPublicKey, publicEncrypt } from "node:crypto";
import { request, type Agent } from "node:https";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { steamGuardCode } from "../../src/platform/sandbox/steam-guard.ts";
import { newSteamAccount } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
}

/** One call as steampy's `requests` makes it: a form body, the answer's JSON and headers. */
function call(agent: Agent, url: string, form?: Record<string, string>): Promise<Answer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        agent,
        method: form ? "POST" : "GET",
        headers: form ? { "content-type": "application/x-www-form-urlencoded" } : {},
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, json: JSON.parse(text) }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

const API = "https://api.steampowered.com/IAuthenticationService";

describe("the login in steampy's plain-field form, answered as JSON with X-eresult", () => {
  let world: SteamFaceWorld;
  let account: SteamCredentials;
  before(async () => {
    world = await openSteamFaceWorld();
    const admin: DomainContext = { ...world.ctx, actor: { kind: "admin" } };
    account = await newSteamAccount(admin);
  });
  after(() => world.close());

  test("RSA key, begin, code, poll, finalizelogin and settoken give host-only steamLoginSecure cookies", async () => {
    const key = (
      await call(world.agent, `${API}/GetPasswordRSAPublicKey/v1?account_name=${account.accountName}`)
    ).json.response as { publickey_mod: string; publickey_exp: string; timestamp: string };
    const publicKey = createPublicKey({
      key: {
        kty: "RSA",
        n: Buffer.from(key.publickey_mod, "hex").toString("base64url"),
        e: Buffer.from(key.publickey_exp, "hex").toString("base64url"),
      },
      format: "jwk",
    });
    const encrypted = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(account.password),
    );
    const begin = await call(world.agent, `${API}/BeginAuthSessionViaCredentials/v1`, {
      persistence: "1",
      encrypted_password: encrypted.toString("base64"),
      account_name: account.accountName,
      encryption_timestamp: key.timestamp,
    });
    assert.equal(begin.headers["x-eresult"], "1");
    const began = begin.json.response as { client_id: string; steamid: string; request_id: string };
    assert.equal(began.steamid, account.platformid);

    const now = Math.floor(world.ctx.clock.now().getTime() / 1000);
    const wrong = await call(world.agent, `${API}/UpdateAuthSessionWithSteamGuardCode/v1`, {
      client_id: began.client_id,
      steamid: began.steamid,
      code_type: "3",
      code: steamGuardCode(account.sharedSecret, now + 3600),
    });
    assert.equal(wrong.headers["x-eresult"], "88");
    const right = await call(world.agent, `${API}/UpdateAuthSessionWithSteamGuardCode/v1`, {
      client_id: began.client_id,
      steamid: began.steamid,
      code_type: "3",
      code: steamGuardCode(account.sharedSecret, now),
    });
    assert.equal(right.headers["x-eresult"], "1");
    const poll = await call(world.agent, `${API}/PollAuthSessionStatus/v1`, {
      client_id: began.client_id,
      request_id: began.request_id,
    });
    const { refresh_token } = poll.json.response as { refresh_token: string };
    assert.ok(refresh_token);

    const finalized = await call(world.agent, "https://login.steampowered.com/jwt/finalizelogin", {
      nonce: refresh_token,
      sessionid: "0123456789abcdef01234567",
      redir: "https://steamcommunity.com/login/home/?goto=",
    });
    assert.equal(finalized.json.steamID, account.platformid);
    const transfers = finalized.json.transfer_info as Array<{ url: string; params: Record<string, string> }>;
    assert.deepEqual(
      transfers.map((transfer) => transfer.url),
      ["https://steamcommunity.com/login/settoken", "https://store.steampowered.com/login/settoken"],
    );
    for (const transfer of transfers) {
      const set = await call(world.agent, transfer.url, { ...transfer.params, steamID: account.platformid });
      const cookies = [set.headers["set-cookie"] ?? []].flat();
      const login = cookies.find((cookie) => cookie.startsWith("steamLoginSecure="));
      assert.ok(login, transfer.url);
      assert.match(
        login,
        new RegExp(`^steamLoginSecure=${account.platformid}%7C%7C[\\w-]+\\.[\\w-]+\\.[\\w-]+;`),
      );
      assert.doesNotMatch(login, /Domain=/i, "host-only, as steampy looks cookies up by exact host");
    }
    // A transfer is for its own host: the community's nonce and auth are refused by the store.
    const [community] = transfers;
    assert.ok(community);
    const crossed = await call(world.agent, "https://store.steampowered.com/login/settoken", {
      ...community.params,
      steamID: account.platformid,
    });
    assert.equal(crossed.json.result, 15);
  });
});
