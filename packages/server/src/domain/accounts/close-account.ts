import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { revokeUserCredentials } from "../tokens/revoke-user-credentials.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { lockUserAccounts, type UserBalances } from "../wallet/ledger.ts";

/**
 * Closes the caller's account (docs/design/back-office.md#closing-an-account): refused while it
 * holds money or has anything open that another person relies on (listings on sale, live trades,
 * buy orders); otherwise every session and token ends and it signs in no more. The user's money
 * accounts are locked first, so that no payment or sale lands between the look and the close.
 */
export async function closeAccount(
  ctx: DomainContext,
  input: { nickname: string },
): Promise<Result<{ userId: number; closedAt: Date }>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const result = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const { balances } = await lockUserAccounts(tx, userId);
    const user = await tx.db
      .selectFrom("users")
      .select(["nickname", "closed_at"])
      .where("user_id", "=", userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (user.closed_at) return fail("Invalid State", "the account is already closed");
    if (user.nickname.toLowerCase() !== input.nickname.normalize("NFC").toLowerCase())
      return invalidArgument("nickname", "type the account's own nickname to close it");
    const open = await openCommitments(tx, userId, balances);
    if (open.length > 0)
      return fail("Invalid State", `the account cannot close while it has ${open.join(", ")}`);
    const closedAt = tx.clock.now();
    await tx.db
      .updateTable("users")
      .set({ closed_at: closedAt, updated_at: closedAt })
      .where("user_id", "=", userId)
      .execute();
    const revoked = await revokeUserCredentials(tx, userId);
    await recordAudit(tx, {
      action: "user.close",
      subject: `user:${userId}`,
      details: { sessions_ended: revoked.sessionsEnded, tokens_revoked: revoked.tokensRevoked },
    });
    return ok({ userId, closedAt });
  });
  if (result.ok) ctx.tokenCache?.forget();
  return result;
}

/** What keeps an account open, in words: money held, listings, trades, buy orders. */
async function openCommitments(tx: DomainContext, userId: number, balances: UserBalances): Promise<string[]> {
  const open: string[] = [];
  const held = Object.entries(balances)
    .filter(([, fen]) => fen !== 0)
    .map(([kind]) => kind);
  if (held.length > 0) open.push(`money (${held.join(", ")}); withdraw it first`);
  const listings = await tx.db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("state", "=", "ON_SALE")
    .executeTakeFirstOrThrow();
  const trades = await tx.db
    .selectFrom("trades")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .where("state", "in", ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"])
    .executeTakeFirstOrThrow();
  const buyOrders = await tx.db
    .selectFrom("buy_orders")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("state", "in", ["progressing", "waiting"])
    .executeTakeFirstOrThrow();
  if (Number(listings.count) > 0) open.push(`${listings.count} listing(s) on sale`);
  if (Number(trades.count) > 0) open.push(`${trades.count} trade(s) not finished`);
  if (Number(buyOrders.count) > 0) open.push(`${buyOrders.count} open buy order(s)`);
  return open;
}
