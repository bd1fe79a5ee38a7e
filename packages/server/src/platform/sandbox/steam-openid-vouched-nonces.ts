import type { DomainContext } from "../../domain/context.ts";

/** How long a nonce is remembered as vouched for: longer than any relying party accepts it. */
const NONCE_MEMORY_MS = 60 * 60 * 1000;

/**
 * True the first time the face's OpenID provider vouches for `nonce`, on any instance sharing the
 * database (OpenID 2.0, 11.4.2.1: a provider answers `is_valid` for an assertion at most once);
 * the key of `sandbox_steam_openid_vouched_nonces` refuses the second. Called only for assertions
 * whose signature is the face's own, so the nonce is one the face made.
 */
export async function vouchForNonceOnce(ctx: DomainContext, nonce: string, wallNow: Date): Promise<boolean> {
  await ctx.db
    .deleteFrom("sandbox_steam_openid_vouched_nonces")
    .where("vouched_at", "<", new Date(wallNow.getTime() - NONCE_MEMORY_MS))
    .execute();
  const fresh = await ctx.db
    .insertInto("sandbox_steam_openid_vouched_nonces")
    .values({ nonce, vouched_at: wallNow })
    .onConflict((conflict) => conflict.column("nonce").doNothing())
    .returning("nonce")
    .executeTakeFirst();
  return fresh !== undefined;
}
