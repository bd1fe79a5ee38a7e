import type { AccessLevel } from "../../storage/schema.ts";
import type { AuditRecord } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok, type Failure } from "../result.ts";
import { isWellFormedApiToken, sha256Hex } from "../secrets.ts";
import type { CachedToken } from "../token-cache.ts";

export interface AuthenticatedToken {
  userId: number;
  tokenId: number;
  accessLevel: AccessLevel;
}

/** How often `last_used_at` is written: often enough to be useful, rarely enough to cost nothing. */
const LAST_USED_RESOLUTION_SECONDS = 60;

const BEARER = "Bearer ";

/**
 * The caller of a well-formed token found valid within the token cache's lifetime, answered
 * without waiting; undefined sends the caller to `authenticateApiToken`.
 */
export function cachedApiToken(
  ctx: DomainContext,
  authorization: string | undefined,
): AuthenticatedToken | undefined {
  if (!authorization || !ctx.tokenCache) return undefined;
  // Only well-formed tokens are ever cached, so the usual spelling is looked up as it comes,
  // without the pattern checks: a miss goes to `authenticateApiToken`, which makes them.
  const token = authorization.startsWith(BEARER)
    ? authorization.slice(BEARER.length)
    : bearerToken(authorization);
  if (!token) return undefined;
  const cached = ctx.tokenCache.get(token);
  return cached && !lastUseIsStale(cached.lastUsedAt, ctx.clock.now()) ? authenticatedAs(cached) : undefined;
}

function bearerToken(authorization: string): string | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
  return match?.[1] && isWellFormedApiToken(match[1]) ? match[1] : undefined;
}

/**
 * A refusal; `audit` is the row it deserves when a credential was presented, written by the caller
 * only within its budget of refusals per client address (`http/limits/refused-credentials.ts`).
 */
export interface CredentialRefusal {
  ok: false;
  failure: Failure;
  audit?: AuditRecord;
}

function refuse(message: string, audit?: AuditRecord): CredentialRefusal {
  return { ok: false, failure: { code: "Unauthorized", message }, ...(audit ? { audit } : {}) };
}

/**
 * Resolves `Authorization: Bearer <token>`. Missing, malformed, unknown and revoked tokens all
 * answer `Unauthorized` (the message says which, the token itself is never echoed); each refusal
 * of a presented token carries its audit record.
 */
export async function authenticateApiToken(
  ctx: DomainContext,
  authorization: string | undefined,
): Promise<{ ok: true; value: AuthenticatedToken } | CredentialRefusal> {
  if (!authorization) return refuse("missing Authorization header: send Authorization: Bearer <token>");
  const presented = bearerToken(authorization);
  if (!presented) {
    return refuse("malformed Authorization header: expected Bearer smk_<43 characters>", {
      action: "auth.refused",
      details: { reason: "malformed" },
    });
  }
  const now = ctx.clock.now();
  const cached = ctx.tokenCache?.get(presented);
  if (cached && !lastUseIsStale(cached.lastUsedAt, now)) return ok(authenticatedAs(cached));
  // Before the read: what it finds is trusted from this moment on, and not at all if the cache is
  // emptied while it runs (a revocation may have committed meanwhile).
  const lookup = ctx.tokenCache?.beginLookup();
  const row = await ctx.db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.user_id", "api_tokens.user_id")
    .select([
      "api_tokens.token_id",
      "api_tokens.user_id",
      "api_tokens.revoked_at",
      "api_tokens.last_used_at",
      "users.access_level",
    ])
    .where("api_tokens.token_hash", "=", sha256Hex(presented))
    .executeTakeFirst();
  if (!row || row.revoked_at) {
    return refuse(row ? "this token has been revoked" : "unknown token", {
      action: "auth.refused",
      ...(row ? { subject: `user:${row.user_id}` } : {}),
      details: { reason: row ? "revoked" : "unknown", ...(row ? { token_id: row.token_id } : {}) },
    });
  }
  let lastUsedAt = row.last_used_at;
  if (lastUseIsStale(lastUsedAt, now)) {
    // Conditional, so that concurrent requests on one token write it once.
    await ctx.db
      .updateTable("api_tokens")
      .set({ last_used_at: now })
      .where("token_id", "=", row.token_id)
      .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", now)]))
      .execute();
    lastUsedAt = now;
  }
  const token = { userId: row.user_id, tokenId: row.token_id, accessLevel: row.access_level, lastUsedAt };
  if (lookup) ctx.tokenCache?.set(presented, token, lookup);
  return ok(authenticatedAs(token));
}

function lastUseIsStale(lastUsedAt: Date | null, now: Date): boolean {
  return !lastUsedAt || now.getTime() - lastUsedAt.getTime() > LAST_USED_RESOLUTION_SECONDS * 1000;
}

function authenticatedAs(token: CachedToken): AuthenticatedToken {
  return { userId: token.userId, tokenId: token.tokenId, accessLevel: token.accessLevel };
}
