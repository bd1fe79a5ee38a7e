import type { BuyOrderStatus } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

export interface BuyOrderSettings {
  buy_order_status: BuyOrderStatus;
  buy_order_auto_offline: boolean;
}

export async function readBuyOrderSettings(
  ctx: DomainContext,
  userId: number,
): Promise<BuyOrderSettings | undefined> {
  return ctx.db
    .selectFrom("users")
    .select(["buy_order_status", "buy_order_auto_offline"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}
