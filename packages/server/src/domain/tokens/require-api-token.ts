import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

/** `Not Found` unless the API token exists (revoked or not). */
export async function requireApiToken(
  ctx: DomainContext,
  tokenId: number,
): Promise<Result<{ tokenId: number }>> {
  const token = await ctx.db
    .selectFrom("api_tokens")
    .select("token_id")
    .where("token_id", "=", tokenId)
    .executeTakeFirst();
  return token ? ok({ tokenId: token.token_id }) : fail("Not Found", `token ${tokenId} does not exist`);
}
