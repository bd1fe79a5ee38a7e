import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DomainContext } from "../../domain/context.ts";
import type { SteamAudience } from "../../storage/schema.ts";
import { checkPlatformCookies, LOGIN_COOKIE, loginCookieValue } from "./platform-sessions.ts";
import { readSteamCredentials } from "./steam-credentials.ts";
import { ERESULT, steamFail, steamOk, type SteamResult } from "./steam-eresult.ts";
import {
  AUTH_SESSION_LIFETIME_MS,
  liveAuthSession,
  POLL_INTERVAL_SECONDS,
  type SteamLoginRequestor,
} from "./steam-login.ts";

/**
 * Steam's logins that the mobile authenticator approves (IAuthenticationService, as
 * steam-session's `startWithQR` and `LoginApprover` drive them): a QR login belongs to no account
 * until an account's authenticator approves it; a credential login may be approved the same way
 * instead of with a code. The approval is signed with the account's `shared_secret` and sent with
 * an access token of the account's signed-in mobile session. The poll then hands out the tokens as
 * for a code (docs/design/steam-face.md#login).
 */

/** The version of the QR challenge (`https://s.team/q/<version>/<client_id>`) and of its signature. */
export const QR_CHALLENGE_VERSION = 1;

export interface BeganSteamQrLogin {
  clientId: string;
  requestId: Buffer;
  challengeUrl: string;
  version: number;
  interval: number;
}

export async function beginSteamQrLogin(
  ctx: DomainContext,
  input: { audience: SteamAudience; requestor?: SteamLoginRequestor },
): Promise<SteamResult<BeganSteamQrLogin>> {
  const now = ctx.clock.now();
  const clientId = String(BigInt(`0x${randomBytes(8).toString("hex")}`) >> 1n);
  const requestId = randomBytes(16);
  await ctx.db
    .insertInto("sandbox_steam_auth_sessions")
    .values({
      client_id: clientId,
      request_id: requestId.toString("base64"),
      platformid: null,
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
    clientId,
    requestId,
    challengeUrl: `https://s.team/q/${QR_CHALLENGE_VERSION}/${clientId}`,
    version: QR_CHALLENGE_VERSION,
    interval: POLL_INTERVAL_SECONDS,
  });
}

export interface MobileConfirmation {
  /** The access token of the approving account's mobile session (`access_token` of the call). */
  accessToken: string;
  version: number;
  clientId: string;
  steamid: string;
  /** HMAC-SHA256 under `shared_secret` of u16le version, u64le client_id, u64le steamid. */
  signature: Buffer;
  confirm: boolean;
}

/**
 * UpdateAuthSessionWithMobileConfirmation: `confirm` passes the session for the approving account
 * (a QR login becomes that account's); a denial ends the session, so its next poll is FileNotFound.
 */
export async function confirmSteamLoginOnMobile(
  ctx: DomainContext,
  input: MobileConfirmation,
): Promise<SteamResult<Record<string, never>>> {
  if (
    !/^7656119\d{10}$/.test(input.steamid) ||
    (await mobileSessionOf(ctx, input.accessToken)) !== input.steamid
  )
    return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const session = await liveAuthSession(ctx, input.clientId);
  if (!session.ok) return session;
  if (input.version !== QR_CHALLENGE_VERSION) return steamFail(ERESULT.InvalidParam, "InvalidParam");
  if (session.value.platformid !== null && session.value.platformid !== input.steamid)
    return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const credentials = await readSteamCredentials(ctx, input.steamid);
  if (!credentials || credentials === "no account") return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const expected = confirmationSignature(credentials.sharedSecret, input);
  if (input.signature.length !== expected.length || !timingSafeEqual(input.signature, expected))
    return steamFail(ERESULT.InvalidSignature, "InvalidSignature");
  // One answer per session: the guarded write decides between two approvers (or an approval and a code).
  const answered = input.confirm
    ? await ctx.db
        .updateTable("sandbox_steam_auth_sessions")
        .set({ platformid: input.steamid, guard_passed_at: ctx.clock.now(), guard_passed_by: "mobile" })
        .where("client_id", "=", input.clientId)
        .where("guard_passed_at", "is", null)
        .executeTakeFirst()
    : await ctx.db
        .deleteFrom("sandbox_steam_auth_sessions")
        .where("client_id", "=", input.clientId)
        .where("guard_passed_at", "is", null)
        .executeTakeFirst();
  const rows = "numUpdatedRows" in answered ? answered.numUpdatedRows : answered.numDeletedRows;
  if (Number(rows) === 0) return steamFail(ERESULT.DuplicateRequest, "DuplicateRequest");
  return steamOk({});
}

/** The signature steam-session's `LoginApprover` (and so the Steam app) makes. */
function confirmationSignature(
  sharedSecret: string,
  input: { version: number; clientId: string; steamid: string },
): Buffer {
  const data = Buffer.alloc(2 + 8 + 8);
  data.writeUInt16LE(input.version, 0);
  data.writeBigUInt64LE(BigInt(input.clientId), 2);
  data.writeBigUInt64LE(BigInt(input.steamid), 10);
  return createHmac("sha256", Buffer.from(sharedSecret, "base64")).update(data).digest();
}

/**
 * The account whose mobile app holds this access token: a live token of its session, issued to
 * the mobile app (audience `mobile`, so that a web cookie cannot act as the authenticator).
 */
export async function mobileSessionOf(ctx: DomainContext, accessToken: string): Promise<string | undefined> {
  let claims: { sub?: unknown; aud?: unknown } | null;
  try {
    claims = JSON.parse(
      Buffer.from(accessToken.split(".")[1] ?? "", "base64url").toString("utf8"),
    ) as typeof claims;
  } catch {
    return undefined;
  }
  const steamid = claims?.sub;
  const audience = claims?.aud;
  if (typeof steamid !== "string" || !/^7656119\d{10}$/.test(steamid)) return undefined;
  if (!Array.isArray(audience) || !audience.includes("mobile")) return undefined;
  const state = await checkPlatformCookies(ctx, steamid, [
    { domain: "steamcommunity.com", key: LOGIN_COOKIE, value: loginCookieValue(steamid, accessToken) },
  ]);
  return state === "valid" ? steamid : undefined;
}
