import { getBriefAsset, getNotification, getSteamTrades } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listTradesToActOn } from "../../../domain/trades/list-trades-to-act-on.ts";
import { readNotificationCounts } from "../../../domain/trades/read-notification-counts.ts";
import { readBriefAsset } from "../../../domain/trades/read-brief-asset.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/**
 * The signed-in session's own state, which real tools also read to learn whether a session is
 * alive: `steam_trade`, `message/notification` and `asset/get_brief_asset`.
 */
export function registerWebProbes(app: FastifyInstance): void {
  registerOperation(app, getSteamTrades, async ({ ctx }) => {
    const trades = await listTradesToActOn(ctx);
    return trades.ok ? ok({ code: "OK" as const, data: trades.value, msg: null }) : trades;
  });
  registerOperation(app, getNotification, async ({ ctx }) => {
    const counts = await readNotificationCounts(ctx);
    return counts.ok ? ok({ code: "OK" as const, data: counts.value, msg: null }) : counts;
  });
  registerOperation(app, getBriefAsset, async ({ ctx }) => {
    const asset = await readBriefAsset(ctx);
    return asset.ok ? ok({ code: "OK" as const, data: asset.value, msg: null }) : asset;
  });
}
