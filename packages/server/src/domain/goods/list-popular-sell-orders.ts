import { POPULAR_COUNT } from "@skinmarket/contract";
import { sql } from "kysely";
import { readUserInfos } from "../users/read-user-infos.ts";
import type { DomainContext } from "../context.ts";
import { readListingFigures } from "./listing-figures.ts";
import { ok } from "../result.ts";
import { bookmarkedIds } from "./bookmarks.ts";
import type { CatalogIndex } from "./catalog-index.ts";
import { readMarketFigures } from "./goods-page-figures.ts";
import { toWebGoodsInfo } from "./list-goods-sell-orders.ts";
import { toWebListing } from "./web-listing.ts";

/**
 * The home page's popular listings (website route `GET /api/index/popular_sell_order`,
 * docs/design/website-goods-routes.md#the-websites-market-data-routes): the goods most traded of all time (the catalog's
 * `transacted_num.desc` order) that have a tradable listing, the first `POPULAR_COUNT` of them,
 * each shown by its cheapest tradable listing (the oldest of equal prices), as the goods page
 * shows listings. The choice of goods reads the in-memory catalog index; the listings are live.
 */
export async function listPopularSellOrders(
  ctx: DomainContext,
  catalog: CatalogIndex,
  viewerId: number | undefined,
) {
  // A few more goods than shown: one may have sold out since the index was built.
  const candidates = catalog.orders
    .get("transacted_num.desc")!
    .filter((entry) => entry.sellNum > 0)
    .slice(0, POPULAR_COUNT * 2)
    .map((entry) => entry.goods.goods_id);
  const now = ctx.clock.now();
  const cheapest =
    candidates.length === 0
      ? []
      : await ctx.db
          .selectFrom("listings")
          .distinctOn("goods_id")
          .selectAll()
          .where("goods_id", "in", candidates)
          .where("state", "=", sql.lit("ON_SALE"))
          .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]))
          .orderBy("goods_id")
          .orderBy("price")
          .orderBy("listing_id")
          .execute();
  const byGoods = new Map(cheapest.map((row) => [row.goods_id, row]));
  const rows = candidates.flatMap((id) => byGoods.get(id) ?? []).slice(0, POPULAR_COUNT);
  const goodsIds = rows.map((row) => row.goods_id);
  const sellerIds = rows.map((row) => row.user_id);
  const [goodsRows, figures, userInfos, listingFigures, bookmarks] = await Promise.all([
    goodsIds.length === 0
      ? []
      : ctx.db.selectFrom("goods").selectAll().where("goods_id", "in", goodsIds).execute(),
    readMarketFigures(ctx, goodsIds),
    readUserInfos(ctx, sellerIds),
    readListingFigures(ctx, rows),
    bookmarkedIds(
      ctx,
      viewerId,
      "sell_order",
      rows.map((row) => row.listing_id),
    ),
  ]);
  const goodsById = new Map(goodsRows.map((goods) => [goods.goods_id, goods]));
  return ok({
    goods_infos: Object.fromEntries(
      goodsIds.map((id) => [String(id), toWebGoodsInfo(goodsById.get(id)!, figures.get(id)!)]),
    ),
    items: rows.map((row) =>
      toWebListing(row, {
        goods: goodsById.get(row.goods_id)!,
        now,
        viewerId,
        bookmarked: bookmarks.has(row.listing_id),
        figures: listingFigures.get(row.listing_id)!,
      }),
    ),
    show_game_cms_icon: false,
    user_infos: userInfos,
  });
}
