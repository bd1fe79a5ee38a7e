import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { tokensChanged } from "./tokens-changed.ts";

/** Revokes a token; revoking an already revoked token answers when it was revoked, unchanged. */
export async function revokeApiToken(
  ctx: DomainContext,
  input: { tokenId: number },
): Promise<Result<{ revokedAt: Date }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin revokes tokens");
  const revoked = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const revoked = await tx.db
      .updateTable("api_tokens")
      .set({ revoked_at: tx.clock.now() })
      .where("token_id", "=", input.tokenId)
      .where("revoked_at", "is", null)
      .returning(["user_id", "revoked_at"])
      .executeTakeFirst();
    if (revoked?.revoked_at) {
      await recordAudit(tx, {
        action: "token.revoke",
        subject: `user:${revoked.user_id}`,
        details: { token_id: input.tokenId },
      });
      await tokensChanged(tx);
      return ok({ revokedAt: revoked.revoked_at });
    }
    const existing = await tx.db
      .selectFrom("api_tokens")
      .select("revoked_at")
      .where("token_id", "=", input.tokenId)
      .executeTakeFirst();
    if (!existing?.revoked_at) return fail("Not Found", `token ${input.tokenId} does not exist`);
    return ok({ revokedAt: existing.revoked_at });
  });
  if (revoked.ok) ctx.tokenCache?.forget();
  return revoked;
}
