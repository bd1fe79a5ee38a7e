import type { BuyOrderStatus } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import type { BuyOrderSettings } from "./buy-order-settings.ts";
import { updateUserSettings } from "./update-user-settings.ts";

/**
 * The caller's own buy-order settings (docs/design/official-operations.md#the-30-operations). Fields left out keep their
 * value; the answer is the settings after the change.
 */
export async function setBuyOrderStatus(
  ctx: DomainContext,
  input: { buyOrderStatus?: BuyOrderStatus; buyOrderAutoOffline?: boolean },
): Promise<Result<BuyOrderSettings>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const updated = await updateUserSettings(ctx, {
    userId: ctx.actor.userId,
    change: {
      ...(input.buyOrderStatus !== undefined ? { buyOrderStatus: input.buyOrderStatus } : {}),
      ...(input.buyOrderAutoOffline !== undefined ? { buyOrderAutoOffline: input.buyOrderAutoOffline } : {}),
    },
  });
  if (!updated.ok) return updated;
  return ok({
    buy_order_status: updated.value.buyOrderStatus,
    buy_order_auto_offline: updated.value.buyOrderAutoOffline,
  });
}
