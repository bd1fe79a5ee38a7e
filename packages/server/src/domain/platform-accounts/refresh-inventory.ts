import type { PlatformAsset, PlatformCookie } from "../platform/game-platform.ts";
import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { toAssetInfo } from "./asset-info.ts";

const INSERT_BATCH = 500;

/**
 * Replaces the marketplace's copy of an account's inventory with what the platform answers now
 * (with cookies for a private inventory). The copy is what the inventory operation reads and
 * filters.
 */
export async function refreshInventory(
  ctx: DomainContext,
  input: { platformid: string; cookies?: PlatformCookie[] },
): Promise<Result<{ items: number }>> {
  const assets = await ctx.platform.readInventory(ctx, input);
  if (!assets.ok) return assets;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    await tx.db.deleteFrom("platform_inventory_items").where("platformid", "=", input.platformid).execute();
    const goods = await goodsOf(tx, assets.value);
    for (let start = 0; start < assets.value.length; start += INSERT_BATCH) {
      const batch = assets.value.slice(start, start + INSERT_BATCH);
      await tx.db
        .insertInto("platform_inventory_items")
        .values(
          batch.map((asset) => {
            const info = goods.get(asset.goodsId)!;
            return {
              platformid: input.platformid,
              assetid: Number(asset.assetid),
              goods_id: asset.goodsId,
              paintwear: asset.paintwear,
              has_nametag: asset.nametag !== null,
              tradable_after: asset.tradableAfter,
              acquired_at: asset.acquiredAt,
              asset: JSON.stringify(toAssetInfo(asset, info.icon_url, info.type)),
            };
          }),
        )
        .execute();
    }
    await tx.db
      .updateTable("bound_platform_accounts")
      .set({ inventory_refreshed_at: tx.clock.now() })
      .where("platformid", "=", input.platformid)
      .execute();
    return ok({ items: assets.value.length });
  });
}

async function goodsOf(ctx: DomainContext, assets: PlatformAsset[]) {
  const ids = [...new Set(assets.map((asset) => asset.goodsId))];
  if (ids.length === 0) return new Map<number, { icon_url: string; type: string }>();
  const rows = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "icon_url", "type"])
    .where("goods_id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.goods_id, row]));
}
