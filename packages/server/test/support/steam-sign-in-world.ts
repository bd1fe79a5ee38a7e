import { mkdtemp } from "node:fs/promises";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import { showSteamCredentials, type SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { steamGuardCode } from "../../src/platform/sandbox/steam-guard.ts";
import {
  issueLeafCertificates,
  loadCertificateAuthority,
} from "../../src/steam-face/certificate-authority.ts";
import { buildSteamFaceApp } from "../../src/steam-face/steam-face-app.ts";
import { listenSteamFace } from "../../src/steam-face/steam-face-listener.ts";
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "./test-app.ts";

export interface SteamSignInWorld {
  market: TestApp;
  /** Reaches Steam's names through the face, trusting only its CA. */
  agent: Agent;
  proxyUrl: string;
  caFile: string;
  /** From now on the marketplace asks Steam (`check_authentication`) through `agent`. */
  marketAsksThrough(agent: Agent): void;
  close(): Promise<void>;
}

/**
 * The marketplace and the sandbox's Steam face on one database: the marketplace asks Steam's
 * OpenID endpoint by its real name, which reaches the face through its proxy, as a server with
 * the face on does.
 */
export async function openSteamSignInWorld(): Promise<SteamSignInWorld> {
  const reach: { agent?: Agent } = {};
  const market = await createTestApp({
    steamOpenId: { endpoint: "https://steamcommunity.com/openid/login", agent: () => reach.agent },
  });
  const authority = await loadCertificateAuthority(await mkdtemp(join(tmpdir(), "skinmarket-openid-")));
  const face = await buildSteamFaceApp({ ctx: market.ctx, leaves: await issueLeafCertificates(authority) });
  const listener = await listenSteamFace(face, { host: "127.0.0.1", port: 0 });
  const proxyUrl = `http://127.0.0.1:${listener.port}`;
  const agent = new Agent({ proxyEnv: { HTTPS_PROXY: proxyUrl }, ca: authority.certPem });
  reach.agent = agent;
  return {
    market,
    agent,
    proxyUrl,
    caFile: authority.certFile,
    marketAsksThrough(other) {
      reach.agent = other;
    },
    async close() {
      agent.destroy();
      await listener.close();
      await face.close();
      await market.close();
    },
  };
}

/** A sandbox platform account with its Steam secrets drawn, as the console shows them. */
export async function steamAccount(world: SteamSignInWorld): Promise<SteamCredentials> {
  const admin = { ...world.market.ctx, actor: { kind: "admin" as const } };
  const created = await createPlatformAccount(admin);
  if (!created.ok) throw new Error(created.failure.message);
  const shown = await showSteamCredentials(admin, created.value.platformid);
  if (!shown.ok) throw new Error(shown.failure.message);
  return shown.value;
}

/** The Steam Guard code the account's authenticator shows now, on the sandbox clock. */
export function guardCodeNow(world: SteamSignInWorld, account: SteamCredentials): string {
  return steamGuardCode(account.sharedSecret, Math.floor(world.market.clock.now().getTime() / 1000));
}

export interface SteamAnswer {
  status: number;
  location: string | undefined;
  body: string;
}

/** A request to one of Steam's names through the face, with a form body when given. */
export function steamRequest(
  world: SteamSignInWorld,
  method: "GET" | "POST",
  url: string,
  form?: Record<string, string>,
): Promise<SteamAnswer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        agent: world.agent,
        headers: body ? { "content-type": "application/x-www-form-urlencoded" } : {},
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, body: text }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** The hidden fields of the face's sign-in page (the OpenID request it carries). */
export function hiddenFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!.replaceAll("&amp;", "&").replaceAll("&quot;", '"');
  return fields;
}

/** The site the marketplace is reached on in these tests (the `Host` of its requests). */
const SITE = "market.test";

/** The browser's round trip: the site's redirect, Steam's sign-in page, and back with the assertion. */
export async function assertionFor(
  world: SteamSignInWorld,
  account: SteamCredentials,
  site = SITE,
): Promise<Record<string, string>> {
  const started = await world.market.app.inject({
    method: "GET",
    url: "/account/api/steam/login",
    headers: { host: site },
  });
  assert.equal(started.statusCode, 200, started.body);
  const page = await steamRequest(world, "GET", started.json().data.redirect_url);
  assert.equal(page.status, 200, page.body);
  const signedIn = await steamRequest(world, "POST", "https://steamcommunity.com/openid/login", {
    ...hiddenFields(page.body),
    username: account.accountName,
    password: account.password,
    twofactorcode: guardCodeNow(world, account),
  });
  assert.equal(signedIn.status, 302, signedIn.body);
  const back = new URL(signedIn.location ?? "");
  assert.equal(`${back.origin}${back.pathname}`, `http://${site}/signin`);
  return Object.fromEntries([...back.searchParams].filter(([name]) => name.startsWith("openid.")));
}

export function completeSignIn(world: SteamSignInWorld, fields: Record<string, string>, site = SITE) {
  return world.market.app.inject({
    method: "POST",
    url: "/account/api/steam/login",
    headers: { host: site },
    payload: fields,
  });
}
