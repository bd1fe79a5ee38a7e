import { randomBytes } from "node:crypto";
import type { DomainContext } from "../../domain/context.ts";
import { ok } from "../../domain/result.ts";
import { constantTimeEqual, sha256Hex } from "../../domain/secrets.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import type { SteamAudience } from "../../storage/schema.ts";
import { checkPlatformCookies, LOGIN_COOKIE, loginCookieValue } from "./platform-sessions.ts";
import { platformidOfAccountName, readSteamCredentials, steamAccountName } from "./steam-credentials.ts";
import { ERESULT, steamFail, steamOk, type SteamResult } from "./steam-eresult.ts";
import { isSteamGuardCodeNow } from "./steam-guard.ts";
import { findRefreshToken, issueAccessToken, issueRefreshToken } from "./steam-tokens.ts";

/**
 * Steam's credential login on the sandbox's accounts (IAuthenticationService, as steam-session and
 * steampy drive it): the password starts an auth session, the Steam Guard code of the account's
 * `shared_secret` passes it, a poll collects a refresh token and an access token, and
 * `finalizelogin` + `settoken` turn them into web cookies. Every step runs on the sandbox clock.
 */
export const AUTH_SESSION_LIFETIME_MS = 10 * 60 * 1000;
/** Seconds between polls that Steam asks of the client. */
export const POLL_INTERVAL_SECONDS = 0.1;
/** The hosts whose `settoken` finalizelogin hands out (those steampy requires a cookie on). */
const TRANSFER_HOSTS = ["steamcommunity.com", "store.steampowered.com"] as const;

export interface BeganSteamLogin {
  clientId: string;
  requestId: Buffer;
  steamid: string;
  interval: number;
}

/** Who asks for a login: what the authenticator is shown of it (`GetAuthSessionInfo`). */
export interface SteamLoginRequestor {
  ip: string;
  deviceFriendlyName: string;
}

export async function beginSteamLogin(
  ctx: DomainContext,
  input: {
    accountName: string;
    password: string | undefined;
    audience: SteamAudience;
    requestor?: SteamLoginRequestor;
  },
): Promise<SteamResult<BeganSteamLogin>> {
  const platformid = platformidOfAccountName(input.accountName);
  const credentials = platformid ? await readSteamCredentials(ctx, platformid) : undefined;
  // One answer for an unknown name, an account without secrets and a wrong password, as Steam's.
  if (
    !platformid ||
    !credentials ||
    credentials === "no account" ||
    input.password === undefined ||
    !constantTimeEqual(input.password, credentials.password)
  )
    return steamFail(ERESULT.InvalidPassword, "InvalidPassword");
  const now = ctx.clock.now();
  const clientId = BigInt(`0x${randomBytes(8).toString("hex")}`) >> 1n;
  const requestId = randomBytes(16);
  await ctx.db
    .insertInto("sandbox_steam_auth_sessions")
    .values({
      client_id: String(clientId),
      request_id: requestId.toString("base64"),
      platformid,
      audience: input.audience,
      created_at: now,
      expires_at: new Date(now.getTime() + AUTH_SESSION_LIFETIME_MS),
      guard_passed_at: null,
      guard_passed_by: null,
      refresh_token_issued_at: null,
      requestor_ip: input.requestor?.ip ?? null,
      device_friendly_name: input.requestor?.deviceFriendlyName ?? null,
    })
    .execute();
  return steamOk({
    clientId: String(clientId),
    requestId,
    steamid: platformid,
    interval: POLL_INTERVAL_SECONDS,
  });
}

export async function submitSteamGuardCode(
  ctx: DomainContext,
  input: { clientId: string; steamid: string; code: string },
): Promise<SteamResult<Record<string, never>>> {
  const session = await liveAuthSession(ctx, input.clientId);
  if (!session.ok) return session;
  if (session.value.platformid !== input.steamid) return steamFail(ERESULT.InvalidParam, "InvalidParam");
  const credentials = await readSteamCredentials(ctx, input.steamid);
  if (!credentials || credentials === "no account") return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const now = ctx.clock.now();
  if (!isSteamGuardCodeNow(credentials.sharedSecret, ctx.clock, input.code))
    return steamFail(ERESULT.TwoFactorCodeMismatch, "TwoFactorCodeMismatch");
  await ctx.db
    .updateTable("sandbox_steam_auth_sessions")
    .set({ guard_passed_at: now, guard_passed_by: "code" })
    .where("client_id", "=", input.clientId)
    .where("guard_passed_at", "is", null)
    .execute();
  return steamOk({});
}

export interface PolledSteamLogin {
  refreshToken?: string;
  accessToken?: string;
  accountName?: string;
  /** The mobile authenticator approved the login (Steam's `had_remote_interaction`). */
  hadRemoteInteraction?: boolean;
}

/** Empty while the code or the mobile confirmation is awaited; the tokens once, when it has passed. */
export async function pollSteamLogin(
  ctx: DomainContext,
  input: { clientId: string; requestId: Buffer },
): Promise<SteamResult<PolledSteamLogin>> {
  // The claim and the tokens commit together; every refusal comes before the first write, so the
  // Steam answer travels as the transaction's value.
  const polled = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    return ok(await claimTokens(tx, input));
  });
  return polled.ok ? polled.value : steamFail(ERESULT.Fail, polled.failure.message);
}

async function claimTokens(
  tx: DomainContext,
  input: { clientId: string; requestId: Buffer },
): Promise<SteamResult<PolledSteamLogin>> {
  const session = await liveAuthSession(tx, input.clientId);
  if (!session.ok) return session;
  if (session.value.request_id !== input.requestId.toString("base64"))
    return steamFail(ERESULT.InvalidParam, "InvalidParam");
  const { platformid, audience, guard_passed_at: passedAt, guard_passed_by: passedBy } = session.value;
  // Before it passes, the poll tells whether an authenticator has read the session.
  if (passedAt === null || platformid === null)
    return steamOk(session.value.remote_interaction_at === null ? {} : { hadRemoteInteraction: true });
  // The tokens are handed out once: the guarded update decides between two racing polls.
  const claimed = await tx.db
    .updateTable("sandbox_steam_auth_sessions")
    .set({ refresh_token_issued_at: tx.clock.now() })
    .where("client_id", "=", input.clientId)
    .where("refresh_token_issued_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return steamFail(ERESULT.FileNotFound, "FileNotFound");
  const refreshToken = await issueRefreshToken(tx, { platformid, audience });
  const accessToken = await issueAccessToken(tx, { platformid, audience, refreshToken });
  return steamOk({
    refreshToken,
    accessToken,
    accountName: steamAccountName(platformid),
    hadRemoteInteraction: passedBy === "mobile",
  });
}

/** GenerateAccessTokenForApp: a new access token from a live refresh token of the same account. */
export async function generateSteamAccessToken(
  ctx: DomainContext,
  input: { refreshToken: string; steamid: string | undefined },
): Promise<SteamResult<{ accessToken: string }>> {
  const refresh = await findRefreshToken(ctx, input.refreshToken);
  if (!refresh || (input.steamid !== undefined && input.steamid !== refresh.platformid))
    return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const accessToken = await issueAccessToken(ctx, { ...refresh, refreshToken: input.refreshToken });
  return steamOk({ accessToken });
}

export interface SteamTransfer {
  host: (typeof TRANSFER_HOSTS)[number];
  nonce: string;
  auth: string;
}

/** finalizelogin: the refresh token (its `nonce`) buys one access token, handed to each host's settoken. */
export async function finalizeSteamLogin(
  ctx: DomainContext,
  input: { refreshToken: string },
): Promise<SteamResult<{ steamid: string; transfers: SteamTransfer[] }>> {
  const refresh = await findRefreshToken(ctx, input.refreshToken);
  if (!refresh) return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const accessToken = await issueAccessToken(ctx, { ...refresh, refreshToken: input.refreshToken });
  return steamOk({
    steamid: refresh.platformid,
    transfers: TRANSFER_HOSTS.map((host) => ({
      host,
      nonce: accessToken,
      auth: transferAuth(host, accessToken),
    })),
  });
}

/** settoken on one host: the `steamLoginSecure` cookie value, when the transfer is this host's and live. */
export async function setSteamToken(
  ctx: DomainContext,
  input: { host: string; steamid: string; nonce: string; auth: string },
): Promise<SteamResult<{ cookie: string }>> {
  if (!constantTimeEqual(input.auth, transferAuth(input.host, input.nonce)))
    return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const cookie = loginCookieValue(input.steamid, input.nonce);
  const state = await checkPlatformCookies(ctx, input.steamid, [
    { domain: "steamcommunity.com", key: LOGIN_COOKIE, value: cookie },
  ]);
  if (state !== "valid")
    return steamFail(state === "expired" ? ERESULT.Expired : ERESULT.AccessDenied, state);
  return steamOk({ cookie });
}

/** Binds a transfer to its host, so that a nonce handed to one host's settoken is refused by another. */
function transferAuth(host: string, nonce: string): string {
  return sha256Hex(`${host}\n${nonce}`).slice(0, 32);
}

/** The auth session of `clientId` while it lasts: FileNotFound for none, Expired after 10 minutes. */
export async function liveAuthSession(ctx: DomainContext, clientId: string) {
  if (!/^\d{1,20}$/.test(clientId)) return steamFail(ERESULT.InvalidParam, "InvalidParam");
  const session = await ctx.db
    .selectFrom("sandbox_steam_auth_sessions")
    .selectAll()
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (!session) return steamFail(ERESULT.FileNotFound, "FileNotFound");
  if (session.expires_at <= ctx.clock.now()) return steamFail(ERESULT.Expired, "Expired");
  return steamOk(session);
}
