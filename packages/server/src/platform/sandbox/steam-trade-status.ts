import type { DomainContext } from "../../domain/context.ts";
import type { PlatformTradeOffer } from "../../domain/platform/game-platform.ts";

/**
 * A trade as IEconService's `GetTradeStatus` and ISteamEconomy's `GetAssetClassInfo` give it. The
 * sandbox's trade id is its accepted offer's id; a trade is complete (ETradeStatus 3) once the
 * offer is accepted. Each item carries its assetid before the trade and `new_assetid` after.
 */
const TRADE_STATUS_COMPLETE = 3;

export async function steamTradeStatusOf(
  ctx: DomainContext,
  viewer: string,
  offer: PlatformTradeOffer,
): Promise<Record<string, unknown>> {
  const rows =
    offer.assetids.length === 0
      ? []
      : await ctx.db
          .selectFrom("sandbox_assets")
          .select(["assetid", "classid", "instanceid"])
          .where("assetid", "in", offer.assetids.map(Number))
          .execute();
  const assets = rows.map((row) => ({
    appid: 730,
    contextid: "2",
    assetid: String(row.assetid),
    amount: "1",
    classid: row.classid,
    instanceid: row.instanceid,
    new_assetid: offer.receivedAssetids?.[String(row.assetid)] ?? "",
    new_contextid: "2",
  }));
  const holder = offer.itemsFrom === "sender" ? offer.sender : offer.receiver;
  return {
    tradeid: offer.tradeofferid,
    steamid_other: viewer === offer.sender ? offer.receiver : offer.sender,
    time_init: Math.floor(offer.updatedAt.getTime() / 1000),
    status: TRADE_STATUS_COMPLETE,
    ...(holder === viewer ? { assets_given: assets } : { assets_received: assets }),
  };
}

/**
 * The descriptions of the given classes (`classid` and `instanceid`), keyed as Steam keys them:
 * `<classid>_<instanceid>`, or the bare classid for instance 0. A class the sandbox never minted
 * is left out, as Steam leaves out classes it does not know.
 */
export async function steamAssetClassInfo(
  ctx: DomainContext,
  classes: Array<{ classid: string; instanceid: string }>,
): Promise<Record<string, Record<string, unknown>>> {
  const known = classes.filter(
    (each) => /^\d{1,20}$/.test(each.classid) && /^\d{1,20}$/.test(each.instanceid),
  );
  if (known.length === 0) return {};
  const rows = await ctx.db
    .selectFrom("sandbox_assets")
    .innerJoin("goods", "goods.goods_id", "sandbox_assets.goods_id")
    .select([
      "sandbox_assets.classid",
      "sandbox_assets.instanceid",
      "goods.market_hash_name",
      "goods.type",
      "goods.icon_url",
      "goods.rarity_color",
      "goods.tags",
    ])
    .distinctOn(["sandbox_assets.classid", "sandbox_assets.instanceid"])
    .where("sandbox_assets.classid", "in", [...new Set(known.map((each) => each.classid))])
    .execute();
  const info: Record<string, Record<string, unknown>> = {};
  for (const wanted of known) {
    const row = rows.find((each) => each.classid === wanted.classid && each.instanceid === wanted.instanceid);
    if (!row) continue;
    info[wanted.instanceid === "0" ? wanted.classid : `${wanted.classid}_${wanted.instanceid}`] = {
      classid: row.classid,
      instanceid: row.instanceid,
      icon_url: row.icon_url,
      name: row.market_hash_name,
      market_hash_name: row.market_hash_name,
      market_name: row.market_hash_name,
      name_color: row.rarity_color ?? "D2D2D2",
      type: row.type,
      tradable: "1",
      marketable: "1",
      commodity: "0",
      tags: Object.fromEntries(
        row.tags.map((tag, index) => [
          String(index),
          { internal_name: tag.internal_name, name: tag.localized_name, category: tag.category },
        ]),
      ),
    };
  }
  return info;
}
