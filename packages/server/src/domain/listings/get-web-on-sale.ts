import type { DomainContext } from "../context.ts";
import { readUserInfos } from "../users/read-user-infos.ts";
import { bookmarkedIds } from "../goods/bookmarks.ts";
import { readWebGoodsInfos } from "../goods/web-goods-infos.ts";
import { toWebListing } from "../goods/web-listing.ts";
import { ok } from "../result.ts";
import { readOnSalePage, type OnSaleQuery } from "./get-on-sale.ts";
import { readListingFigures } from "../goods/listing-figures.ts";

/**
 * The signed-in user's listings on sale as the website shows them (`sell_order/on_sale`): the
 * official route's page (`readOnSalePage`: same filters, sorts and indexes), each listing as the
 * goods pages show listings, with the platform account under the real website's `user_steamid`.
 */
export async function getWebOnSale(ctx: DomainContext, query: OnSaleQuery) {
  const page = await readOnSalePage(ctx, query);
  if (!page.ok) return page;
  const { rows, totalCount } = page.value;
  const viewerId = ctx.actor.kind === "user" ? ctx.actor.userId : undefined;
  const [goods, figures, userInfos, bookmarks] = await Promise.all([
    readWebGoodsInfos(
      ctx,
      rows.map((row) => row.goods_id),
    ),
    readListingFigures(ctx, rows),
    readUserInfos(
      ctx,
      rows.map((row) => row.user_id),
    ),
    bookmarkedIds(
      ctx,
      viewerId,
      "sell_order",
      rows.map((row) => row.listing_id),
    ),
  ]);
  const now = ctx.clock.now();
  return ok({
    items: rows.map((row) => ({
      ...toWebListing(row, {
        goods: goods.goods.get(row.goods_id)!,
        now,
        viewerId,
        bookmarked: bookmarks.has(row.listing_id),
        figures: figures.get(row.listing_id)!,
      }),
      user_steamid: row.platformid,
    })),
    goods_infos: goods.infos,
    user_infos: userInfos,
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
