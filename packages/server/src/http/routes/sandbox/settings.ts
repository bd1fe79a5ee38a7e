import { sandboxUpdateUserSettings as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { updateUserSettings } from "../../../domain/accounts/update-user-settings.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxSettings(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, params, body }) => {
    const updated = await updateUserSettings(ctx, {
      userId: Number(params.user_id),
      change: {
        ...(body.buy_order_status !== undefined ? { buyOrderStatus: body.buy_order_status } : {}),
        ...(body.buy_order_auto_offline !== undefined
          ? { buyOrderAutoOffline: body.buy_order_auto_offline }
          : {}),
        ...(body.access_level !== undefined ? { accessLevel: body.access_level } : {}),
        ...(body.card_declines !== undefined ? { cardDeclines: body.card_declines } : {}),
      },
    });
    if (!updated.ok) return updated;
    return ok({
      user_id: String(updated.value.userId),
      access_level: updated.value.accessLevel,
      buy_order_status: updated.value.buyOrderStatus,
      buy_order_auto_offline: updated.value.buyOrderAutoOffline,
      card_declines: updated.value.cardDeclines,
    });
  });
}
