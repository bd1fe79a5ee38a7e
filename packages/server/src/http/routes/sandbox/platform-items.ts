import { sandboxGrantItems } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toAssetInfo } from "../../../domain/platform-accounts/asset-info.ts";
import { ok } from "../../../domain/result.ts";
import { grantItems } from "../../../platform/sandbox/grant-items.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxPlatformItems(app: FastifyInstance): void {
  registerOperation(app, sandboxGrantItems, async ({ ctx, params, body }) => {
    const granted = await grantItems(ctx, {
      platformid: params.platformid,
      ...(body.goods_id !== undefined ? { goodsId: body.goods_id } : {}),
      ...(body.market_hash_name !== undefined ? { marketHashName: body.market_hash_name } : {}),
      ...(body.count !== undefined ? { count: body.count } : {}),
      ...(body.paintwear !== undefined ? { paintwear: body.paintwear } : {}),
      ...(body.paintseed !== undefined ? { paintseed: body.paintseed } : {}),
      ...(body.stickers !== undefined ? { stickers: body.stickers } : {}),
      ...(body.nametag !== undefined ? { nametag: body.nametag } : {}),
      ...(body.cooldown_days !== undefined ? { cooldownDays: body.cooldown_days } : {}),
      ...(body.random_extras !== undefined ? { randomExtras: body.random_extras } : {}),
    });
    if (!granted.ok) return granted;
    const { assets, goods } = granted.value;
    return ok({ assets: assets.map((asset) => toAssetInfo(asset, goods.iconUrl, goods.type)) });
  });
}
