import type { DomainContext } from "../../domain/context.ts";
import { generateSecret, sha256Hex } from "../../domain/secrets.ts";
import type { CookieState } from "../../storage/schema.ts";
import type { PlatformCookie } from "../../domain/platform/game-platform.ts";

/**
 * Session cookies the sandbox platform issues, in the platform's form: `steamLoginSecure` is
 * `<platformid>%7C%7C<secret>` on steamcommunity.com, with a `sessionid` beside it. The platform
 * keeps only a digest of the secret.
 */
export const LOGIN_COOKIE = "steamLoginSecure";
const COOKIE_DOMAIN = "steamcommunity.com";
const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export async function issuePlatformCookies(
  ctx: DomainContext,
  platformid: string,
): Promise<PlatformCookie[]> {
  const secret = generateSecret();
  await recordPlatformSession(ctx, { platformid, secret, lifetimeMs: SESSION_LIFETIME_MS });
  return [
    { domain: COOKIE_DOMAIN, key: LOGIN_COOKIE, value: loginCookieValue(platformid, secret) },
    { domain: COOKIE_DOMAIN, key: "sessionid", value: generateSecret().slice(0, 24) },
  ];
}

/**
 * A session of the account whose cookie carries `secret` after the platformid: a secret of ours,
 * or an access token the Steam face issued (Steam's `steamLoginSecure` is `steamid||token`).
 */
export async function recordPlatformSession(
  ctx: DomainContext,
  input: { platformid: string; secret: string; lifetimeMs: number },
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .insertInto("sandbox_platform_sessions")
    .values({
      platformid: input.platformid,
      secret_hash: sha256Hex(input.secret),
      issued_at: now,
      expires_at: new Date(now.getTime() + input.lifetimeMs),
    })
    .execute();
}

/** The cookie value of a session: `<platformid>%7C%7C<secret>`. */
export function loginCookieValue(platformid: string, secret: string): string {
  return `${platformid}%7C%7C${secret}`;
}

/** Ends every session the platform issued for the account (they answer `expired` from now on). */
export async function expirePlatformCookies(ctx: DomainContext, platformid: string): Promise<number> {
  const now = ctx.clock.now();
  const expired = await ctx.db
    .updateTable("sandbox_platform_sessions")
    .set({ expires_at: now })
    .where("platformid", "=", platformid)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(expired.numUpdatedRows);
}

export async function checkPlatformCookies(
  ctx: DomainContext,
  platformid: string,
  cookies: PlatformCookie[],
): Promise<CookieState> {
  const login = cookies.find(
    (cookie) => cookie.key === LOGIN_COOKIE && cookie.domain.endsWith(COOKIE_DOMAIN),
  );
  const [owner, secret] = login ? (decodedCookie(login.value)?.split("||") ?? []) : [];
  if (!owner || !secret || owner !== platformid) return "invalid";
  const session = await ctx.db
    .selectFrom("sandbox_platform_sessions")
    .select("expires_at")
    .where("secret_hash", "=", sha256Hex(secret))
    .where("platformid", "=", platformid)
    .executeTakeFirst();
  if (!session) return "invalid";
  return session.expires_at > ctx.clock.now() ? "valid" : "expired";
}

/** A cookie value as the platform reads it; one that is not valid percent-encoding is no session. */
function decodedCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
