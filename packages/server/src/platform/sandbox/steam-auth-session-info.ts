import type { DomainContext } from "../../domain/context.ts";
import type { SteamAudience } from "../../storage/schema.ts";
import { ERESULT, steamFail, steamOk, type SteamResult } from "./steam-eresult.ts";
import { liveAuthSession } from "./steam-login.ts";
import { mobileSessionOf, QR_CHALLENGE_VERSION } from "./steam-mobile-login.ts";

/**
 * What the mobile authenticator reads of a pending login before approving it
 * (IAuthenticationService `GetAuthSessionInfo` and `GetAuthSessionsForAccount`, as Steam's app
 * and steam-session's `LoginApprover` call them; docs/design/steam-face.md#login), on the caller's
 * mobile access token.
 */

/** EAuthTokenPlatformType of the audience the login asked for. */
const PLATFORM_TYPES: Record<SteamAudience, number> = { client: 1, web: 2, mobile: 3 };
/** EAuthSessionSecurityHistory: the account passed a login from this address before, or never. */
const USED_PREVIOUSLY = 1;
const NO_PRIOR_HISTORY = 2;
/** ESessionPersistence: every sandbox session persists until it expires or is ended. */
const PERSISTENT = 1;
/**
 * The sandbox has no geolocation database: every requestor is placed at one place, in the
 * country the face's `steamCountry` cookie names, so no location differs from another's.
 */
export const SANDBOX_LOCATION = {
  geoloc: "47.61,-122.20",
  city: "Bellevue",
  state: "Washington",
  country: "US",
} as const;

export interface SteamAuthSessionInfo {
  ip: string;
  geoloc: string;
  city: string;
  state: string;
  country: string;
  platformType: number;
  deviceFriendlyName: string;
  version: number;
  loginHistory: number;
  locationMismatch: boolean;
  highUsageLogin: boolean;
  requestedPersistence: number;
}

/**
 * The pending login of `clientId`, for an authenticator that may answer it: a QR login (anyone's
 * until approved) or a credential login of the caller's account. Reading it is the authenticator's
 * remote interaction, which the login's poll reports from then on.
 */
export async function readSteamAuthSessionInfo(
  ctx: DomainContext,
  input: { accessToken: string; clientId: string },
): Promise<SteamResult<SteamAuthSessionInfo>> {
  const approver = await mobileSessionOf(ctx, input.accessToken);
  if (!approver) return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const session = await liveAuthSession(ctx, input.clientId);
  if (!session.ok) return session;
  const { platformid, requestor_ip: ip } = session.value;
  if (platformid !== null && platformid !== approver) return steamFail(ERESULT.AccessDenied, "AccessDenied");
  await ctx.db
    .updateTable("sandbox_steam_auth_sessions")
    .set({ remote_interaction_at: ctx.clock.now() })
    .where("client_id", "=", input.clientId)
    .where("remote_interaction_at", "is", null)
    .execute();
  const seenBefore =
    ip !== null &&
    (await ctx.db
      .selectFrom("sandbox_steam_auth_sessions")
      .select("client_id")
      .where("platformid", "=", approver)
      .where("requestor_ip", "=", ip)
      .where("guard_passed_at", "is not", null)
      .where("client_id", "!=", input.clientId)
      .executeTakeFirst()) !== undefined;
  return steamOk({
    ip: ip ?? "",
    ...SANDBOX_LOCATION,
    platformType: PLATFORM_TYPES[session.value.audience],
    deviceFriendlyName: session.value.device_friendly_name ?? "",
    version: QR_CHALLENGE_VERSION,
    loginHistory: seenBefore ? USED_PREVIOUSLY : NO_PRIOR_HISTORY,
    // One place for every requestor (above), and the sandbox counts no login as unusual.
    locationMismatch: false,
    highUsageLogin: false,
    requestedPersistence: PERSISTENT,
  });
}

/**
 * The caller's account's credential logins waiting for a guard (a QR login is no account's until
 * approved, so none is listed), newest first: the ids the app then reads with `GetAuthSessionInfo`.
 */
export async function listSteamAuthSessionsForAccount(
  ctx: DomainContext,
  input: { accessToken: string },
): Promise<SteamResult<{ clientIds: string[] }>> {
  const account = await mobileSessionOf(ctx, input.accessToken);
  if (!account) return steamFail(ERESULT.AccessDenied, "AccessDenied");
  const rows = await ctx.db
    .selectFrom("sandbox_steam_auth_sessions")
    .select("client_id")
    .where("platformid", "=", account)
    .where("guard_passed_at", "is", null)
    .where("expires_at", ">", ctx.clock.now())
    .orderBy("created_at", "desc")
    .orderBy("client_id", "desc")
    .execute();
  return steamOk({ clientIds: rows.map((row) => row.client_id) });
}
