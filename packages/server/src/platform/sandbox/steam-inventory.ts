import type { DomainContext } from "../../domain/context.ts";
import type { PlatformAsset, PlatformCookie } from "../../domain/platform/game-platform.ts";

/**
 * An inventory page as Steam's `/inventory/{steamid}/730/2` gives it: `assets` (one per item),
 * `descriptions` (one per classid and instanceid), `asset_properties` (where Steam now puts the
 * wear and the pattern seed), and the paging fields `more_items`/`last_assetid`. Read through the
 * platform port, so private inventories and outages are the platform's own answers.
 */
export const STEAM_INVENTORY_MAX_COUNT = 2000;
const CS2_APPID = 730;
const CS2_CONTEXT = "2";
/** Steam's asset property ids for CS2: the pattern template (seed) and the wear rating (float). */
const PATTERN_TEMPLATE = 1;
const WEAR_RATING = 2;

export interface SteamInventoryPage {
  assets: Array<{
    appid: number;
    contextid: string;
    assetid: string;
    classid: string;
    instanceid: string;
    amount: string;
  }>;
  descriptions: Array<Record<string, unknown>>;
  asset_properties: Array<{
    appid: number;
    contextid: string;
    assetid: string;
    asset_properties: Array<Record<string, unknown>>;
  }>;
  total_inventory_count: number;
  more_items?: 1;
  last_assetid?: string;
  success: 1;
  rwgrsn: -2;
}

export type SteamInventoryAnswer =
  { kind: "page"; page: SteamInventoryPage } | { kind: "private" } | { kind: "unavailable"; message: string };

export async function readSteamInventory(
  ctx: DomainContext,
  input: { steamid: string; cookies: PlatformCookie[]; count: number; startAssetid: string | undefined },
): Promise<SteamInventoryAnswer> {
  const read = await ctx.platform.readInventory(ctx, { platformid: input.steamid, cookies: input.cookies });
  if (!read.ok)
    return read.failure.code === "Invalid State" && /private/.test(read.failure.message)
      ? { kind: "private" }
      : read.failure.code === "Not Found"
        ? { kind: "private" }
        : { kind: "unavailable", message: read.failure.message };
  const all = read.value;
  const start = input.startAssetid === undefined ? 0n : BigInt(input.startAssetid);
  const after = all.filter((asset) => BigInt(asset.assetid) > start);
  const items = after.slice(0, input.count);
  const descriptions = await describe(ctx, items);
  const last = items.at(-1);
  return {
    kind: "page",
    page: {
      assets: items.map((asset) => ({
        appid: CS2_APPID,
        contextid: CS2_CONTEXT,
        assetid: asset.assetid,
        classid: asset.classid,
        instanceid: asset.instanceid,
        amount: "1",
      })),
      descriptions,
      asset_properties: items.map((asset) => ({
        appid: CS2_APPID,
        contextid: CS2_CONTEXT,
        assetid: asset.assetid,
        asset_properties: propertiesOf(asset),
      })),
      total_inventory_count: all.length,
      ...(after.length > items.length && last ? { more_items: 1 as const, last_assetid: last.assetid } : {}),
      success: 1,
      rwgrsn: -2,
    },
  };
}

function propertiesOf(asset: PlatformAsset): Array<Record<string, unknown>> {
  return [
    ...(asset.paintseed !== null
      ? [{ propertyid: PATTERN_TEMPLATE, int_value: String(asset.paintseed), name: "Pattern Template" }]
      : []),
    ...(asset.paintwear !== null
      ? [{ propertyid: WEAR_RATING, float_value: asset.paintwear, name: "Wear Rating" }]
      : []),
  ];
}

async function describe(ctx: DomainContext, items: PlatformAsset[]): Promise<Array<Record<string, unknown>>> {
  const goodsIds = [...new Set(items.map((item) => item.goodsId))];
  if (goodsIds.length === 0) return [];
  const goods = new Map(
    (
      await ctx.db
        .selectFrom("goods")
        .select(["goods_id", "market_hash_name", "name", "type", "icon_url", "rarity_color", "tags"])
        .where("goods_id", "in", goodsIds)
        .execute()
    ).map((row) => [row.goods_id, row]),
  );
  const now = ctx.clock.now();
  const seen = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const key = `${item.classid}_${item.instanceid}`;
    const row = goods.get(item.goodsId);
    if (seen.has(key) || !row) continue;
    const tradable = item.tradableAfter === null || item.tradableAfter <= now;
    seen.set(key, {
      appid: CS2_APPID,
      classid: item.classid,
      instanceid: item.instanceid,
      currency: 0,
      background_color: "",
      icon_url: row.icon_url,
      descriptions: [],
      tradable: tradable ? 1 : 0,
      ...(item.inspectUrl ? { actions: [{ link: item.inspectUrl, name: "Inspect in Game..." }] } : {}),
      name: row.market_hash_name,
      name_color: row.rarity_color ?? "D2D2D2",
      type: row.type,
      market_name: row.market_hash_name,
      market_hash_name: row.market_hash_name,
      commodity: 0,
      market_tradable_restriction: 7,
      market_marketable_restriction: 7,
      marketable: 1,
      tags: row.tags.map((tag) => ({
        category: tag.category,
        internal_name: tag.internal_name,
        localized_category_name: tag.category,
        localized_tag_name: tag.localized_name,
      })),
      ...(item.nametag ? { fraudwarnings: [item.nametag] } : {}),
    });
  }
  return [...seen.values()];
}
