import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { readBuyOrderSettings, type BuyOrderSettings } from "./buy-order-settings.ts";

export async function getBuyOrderStatus(ctx: DomainContext): Promise<Result<BuyOrderSettings>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const settings = await readBuyOrderSettings(ctx, ctx.actor.userId);
  if (!settings) return fail("Not Found", "user not found");
  return ok(settings);
}
