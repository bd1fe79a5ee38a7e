import { randomBytes } from "node:crypto";
import type { DomainContext } from "../../domain/context.ts";
import { sha256Hex } from "../../domain/secrets.ts";
import type { SteamAudience } from "../../storage/schema.ts";
import { recordPlatformSession } from "./platform-sessions.ts";

/**
 * Steam's login tokens, in the form the libraries read: JWTs whose payload carries `sub` (the
 * SteamID), `aud` (`web`/`mobile`/`client`, plus `derive` and `renew` on a refresh token), `iss`
 * and the times. Libraries decode them and never check the signature, so the signature part is a
 * random secret: the platform keeps only digests, and a token is valid because the platform issued
 * it, not because of its payload. An access token is a platform session, so the web cookie built
 * from it (`steamid||token`) is a session the marketplace accepts from an upload too.
 */
export const ACCESS_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;
export const REFRESH_TOKEN_LIFETIME_MS = 200 * 24 * 3600 * 1000;

export async function issueRefreshToken(
  ctx: DomainContext,
  input: { platformid: string; audience: SteamAudience },
): Promise<string> {
  const token = jwtOf(ctx, {
    iss: "steam",
    sub: input.platformid,
    aud: [input.audience, "renew", "derive"],
    lifetimeMs: REFRESH_TOKEN_LIFETIME_MS,
  });
  const now = ctx.clock.now();
  await ctx.db
    .insertInto("sandbox_steam_refresh_tokens")
    .values({
      token_hash: sha256Hex(token),
      platformid: input.platformid,
      audience: input.audience,
      issued_at: now,
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    })
    .execute();
  return token;
}

export async function issueAccessToken(
  ctx: DomainContext,
  input: { platformid: string; audience: SteamAudience; refreshToken: string },
): Promise<string> {
  const token = jwtOf(ctx, {
    iss: `r:${payloadOf(input.refreshToken)?.jti ?? ""}`,
    sub: input.platformid,
    aud: [input.audience],
    lifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
  });
  await recordPlatformSession(ctx, {
    platformid: input.platformid,
    secret: token,
    lifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
  });
  return token;
}

/** The live refresh token's account and audience; undefined for one never issued or expired. */
export async function findRefreshToken(
  ctx: DomainContext,
  token: string,
): Promise<{ platformid: string; audience: SteamAudience } | undefined> {
  const row = await ctx.db
    .selectFrom("sandbox_steam_refresh_tokens")
    .select(["platformid", "audience", "expires_at"])
    .where("token_hash", "=", sha256Hex(token))
    .executeTakeFirst();
  return row && row.expires_at > ctx.clock.now()
    ? { platformid: row.platformid, audience: row.audience }
    : undefined;
}

function jwtOf(
  ctx: DomainContext,
  claims: { iss: string; sub: string; aud: string[]; lifetimeMs: number },
): string {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const jti = randomBytes(8).toString("hex").toUpperCase();
  const header = { typ: "JWT", alg: "EdDSA" };
  const payload = {
    iss: claims.iss,
    sub: claims.sub,
    aud: claims.aud,
    exp: now + Math.floor(claims.lifetimeMs / 1000),
    nbf: now,
    iat: now,
    jti,
    oat: now,
    per: 1,
    ip_subject: "127.0.0.1",
    ip_confirmer: "127.0.0.1",
  };
  return [
    Buffer.from(JSON.stringify(header)).toString("base64url"),
    Buffer.from(JSON.stringify(payload)).toString("base64url"),
    randomBytes(48).toString("base64url"),
  ].join(".");
}

function payloadOf(token: string): { jti?: string } | undefined {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      jti?: string;
    };
  } catch {
    return undefined;
  }
}
