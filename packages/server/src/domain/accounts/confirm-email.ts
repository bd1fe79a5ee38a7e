import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { sha256Hex } from "../secrets.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

/**
 * Confirms an address with the code its link carries (docs/design/back-office.md#accounts-for-people):
 * a code works once, before it expires, and only for the address it was mailed to (an address
 * changed since leaves its old codes useless). Every refusal reads the same, so a guess learns
 * nothing.
 */
export async function confirmEmail(
  ctx: DomainContext,
  input: { code: string },
): Promise<Result<{ userId: number; nickname: string; email: string }>> {
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const now = tx.clock.now();
    const used = await tx.db
      .updateTable("email_confirmations")
      .set({ used_at: now })
      .where("code_hash", "=", sha256Hex(input.code))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning(["user_id", "email"])
      .executeTakeFirst();
    const refused = fail(
      "Invalid Argument",
      "code: this link is unknown, used or expired; sign in to get a new one",
    );
    if (!used) return refused;
    const user = await tx.db
      .updateTable("users")
      .set((eb) => ({
        email_confirmed_at: eb.fn.coalesce("email_confirmed_at", eb.val(now)),
        updated_at: now,
      }))
      .where("user_id", "=", used.user_id)
      .where("email", "=", used.email)
      .where("closed_at", "is", null)
      .returning(["user_id", "nickname", "email"])
      .executeTakeFirst();
    if (!user) return refused;
    await recordAudit(tx, { action: "user.email_confirmed", subject: `user:${user.user_id}` });
    return ok({ userId: user.user_id, nickname: user.nickname, email: used.email });
  });
}
