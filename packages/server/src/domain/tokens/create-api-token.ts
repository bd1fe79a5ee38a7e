import { recordAudit } from "../audit.ts";
import { requireUser } from "../users/require-user.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { generateApiToken, sha256Hex, tokenDisplayPrefix } from "../secrets.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

export interface IssuedToken {
  /** The token itself: answered once, never stored. */
  token: string;
  tokenId: number;
}

export async function createApiToken(
  ctx: DomainContext,
  input: { userId: number },
): Promise<Result<IssuedToken>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin issues tokens");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await requireUser(tx, input.userId);
    if (!user.ok) return user;
    const token = generateApiToken();
    const { token_id: tokenId } = await tx.db
      .insertInto("api_tokens")
      .values({
        user_id: input.userId,
        token_hash: sha256Hex(token),
        prefix: tokenDisplayPrefix(token),
        created_at: tx.clock.now(),
      })
      .returning("token_id")
      .executeTakeFirstOrThrow();
    await recordAudit(tx, {
      action: "token.create",
      subject: `user:${input.userId}`,
      details: { token_id: tokenId, prefix: tokenDisplayPrefix(token) },
    });
    return ok({ token, tokenId });
  });
}
