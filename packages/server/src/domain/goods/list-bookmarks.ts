import { formatMoney } from "@skinmarket/contract";
import type { BookmarkTarget } from "../../storage/schema.ts";
import { toUnixSeconds } from "../clock.ts";
import { toBookmarkAlert } from "./bookmark-alert-record.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import type { CatalogEntry, CatalogIndex } from "./catalog-index.ts";
import { catalogPage } from "./list-catalog-goods.ts";

/**
 * The signed-in user's bookmarks of one type, newest first (website route
 * `GET /api/market/goods/bookmark`, docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token): each with its goods as the
 * catalog page shows it, and a listing's price and whether it is still on sale (a bookmark
 * outlives the sale).
 */
export async function listBookmarks(
  ctx: DomainContext,
  catalog: CatalogIndex,
  query: { type: BookmarkTarget; pageNum: number; pageSize: number },
) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const mine = ctx.db
    .selectFrom("bookmarks")
    .where("user_id", "=", userId)
    .where("target_type", "=", query.type);
  const [rows, counted] = await Promise.all([
    mine
      .select([
        "target_id",
        "created_at",
        "alert_sell_at",
        "alert_buy_at",
        "alert_sell_reached",
        "alert_buy_reached",
        "alert_fired_at",
        "alert_fired_price",
      ])
      .orderBy("created_at", "desc")
      .orderBy("target_id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNum - 1) * query.pageSize)
      .execute(),
    mine.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const listings =
    query.type === "sell_order" && rows.length > 0
      ? await ctx.db
          .selectFrom("listings")
          .select(["listing_id", "goods_id", "price", "state"])
          .where(
            "listing_id",
            "in",
            rows.map((row) => Number(row.target_id)),
          )
          .execute()
      : [];
  const listingOf = new Map(listings.map((listing) => [Number(listing.listing_id), listing]));
  const goodsIdOf = (targetId: number) =>
    query.type === "goods" ? targetId : listingOf.get(targetId)?.goods_id;
  const entries = [
    ...new Set(rows.map((row) => goodsIdOf(Number(row.target_id))).filter((id) => id !== undefined)),
  ]
    .map((goodsId) => catalog.byId.get(goodsId))
    .filter((entry): entry is CatalogEntry => entry !== undefined);
  // The goods as the catalog page shows them, from the same code (figures, names, the viewer's marks).
  const shown =
    entries.length === 0
      ? []
      : await catalogPage(
          ctx,
          entries,
          { viewerId: userId, pageNum: 1, pageSize: entries.length, sortBy: "" },
          (entry) => entry.sellMin,
        ).then((page) => (page.ok ? page.value.items : []));
  const goodsById = new Map(shown.map((goods) => [goods.id, goods]));
  const items = rows.flatMap((row) => {
    const targetId = Number(row.target_id);
    const goodsId = goodsIdOf(targetId);
    const goods = goodsId === undefined ? undefined : goodsById.get(goodsId);
    if (!goods) return [];
    const listing = listingOf.get(targetId);
    return [
      {
        type: query.type,
        id: String(targetId),
        created_at: toUnixSeconds(row.created_at),
        goods,
        sell_order: listing
          ? { id: String(targetId), price: formatMoney(listing.price), on_sale: listing.state === "ON_SALE" }
          : null,
        alert:
          row.alert_sell_at === null && row.alert_buy_at === null
            ? null
            : toBookmarkAlert(row, { market_hash_name: goods.market_hash_name, name: goods.name }),
      },
    ];
  });
  const totalCount = Number(counted.n);
  return ok({
    items,
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
