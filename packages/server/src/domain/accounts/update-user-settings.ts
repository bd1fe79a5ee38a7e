import type { AccessLevel, BuyOrderStatus } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import { crossBuyOrder } from "../buy-orders/match.ts";
import { noteBuyerOrdersChanged } from "../market/public-book.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { tokensChanged } from "../tokens/tokens-changed.ts";

export interface UserSettingsChange {
  buyOrderStatus?: BuyOrderStatus;
  buyOrderAutoOffline?: boolean;
  accessLevel?: AccessLevel;
  /** Sandbox only: whether the card network declines this user's card payments. */
  cardDeclines?: boolean;
}

export interface UserSettings {
  userId: number;
  accessLevel: AccessLevel;
  buyOrderStatus: BuyOrderStatus;
  buyOrderAutoOffline: boolean;
  cardDeclines: boolean;
}

/**
 * Changes a user's settings. Users change their own buy-order settings; only the sandbox admin
 * changes an access level.
 */
export async function updateUserSettings(
  ctx: DomainContext,
  input: { userId: number; change: UserSettingsChange },
): Promise<Result<UserSettings>> {
  const { userId, change } = input;
  const ownSettings = ctx.actor.kind === "user" && ctx.actor.userId === userId;
  const adminOnly = change.accessLevel !== undefined || change.cardDeclines !== undefined;
  if (ctx.actor.kind !== "admin" && !(ownSettings && !adminOnly)) {
    return fail("Access Denied", "these settings can only be changed by their owner or the sandbox admin");
  }
  const settings = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const updated = await tx.db
      .updateTable("users")
      .set({
        updated_at: tx.clock.now(),
        ...(change.buyOrderStatus !== undefined ? { buy_order_status: change.buyOrderStatus } : {}),
        ...(change.buyOrderAutoOffline !== undefined
          ? { buy_order_auto_offline: change.buyOrderAutoOffline }
          : {}),
        ...(change.accessLevel !== undefined ? { access_level: change.accessLevel } : {}),
      })
      .where("user_id", "=", userId)
      .returning(["user_id", "access_level", "buy_order_status", "buy_order_auto_offline"])
      .executeTakeFirst();
    if (!updated) return fail("Not Found", `user ${userId} does not exist`);
    // Online or offline, the user's orders join or leave the public book.
    if (change.buyOrderStatus !== undefined) await noteBuyerOrdersChanged(tx, userId);
    if (change.cardDeclines !== undefined) {
      await tx.db
        .insertInto("sandbox_cards")
        .values({ user_id: userId, declines: change.cardDeclines })
        .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ declines: change.cardDeclines! }))
        .execute();
    }
    const card = await tx.db
      .selectFrom("sandbox_cards")
      .select("declines")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    await recordAudit(tx, { action: "user.settings", subject: `user:${userId}`, details: { ...change } });
    if (change.accessLevel !== undefined) await tokensChanged(tx);
    return ok({
      userId: updated.user_id,
      accessLevel: updated.access_level,
      buyOrderStatus: updated.buy_order_status,
      buyOrderAutoOffline: updated.buy_order_auto_offline,
      cardDeclines: card?.declines ?? false,
    });
  });
  if (settings.ok && change.accessLevel !== undefined) ctx.tokenCache?.forget();
  // Back online, the user's orders buy what crossed them while they were hidden.
  if (settings.ok && change.buyOrderStatus === "online") await crossOrdersOf(ctx, userId);
  return settings;
}

async function crossOrdersOf(ctx: DomainContext, userId: number): Promise<void> {
  const orders = await ctx.db
    .selectFrom("buy_orders")
    .select("buy_order_id")
    .where("user_id", "=", userId)
    .where("state", "=", "progressing")
    .orderBy("price", "desc")
    .orderBy("buy_order_id")
    .execute();
  for (const order of orders) await crossBuyOrder(ctx, order.buy_order_id);
}
