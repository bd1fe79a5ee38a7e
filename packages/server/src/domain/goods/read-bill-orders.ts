import { formatMoney, RECORD_GAME, type AssetInfo } from "@skinmarket/contract";
import { sql } from "kysely";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { unknownGoodsMessage } from "./find-goods.ts";

/**
 * The completed trades of a goods, a page at a time (website route `goods/bill_order`, docs/design/website-goods-routes.md#the-websites-goods-pages), newest first: price, time, how it sold and what the item looked like; nothing
 * about buyer or seller (no user ids, platform ids, asset ids or fees).
 */
export async function readBillOrders(
  ctx: DomainContext,
  input: { goodsId: number; pageNum: number; pageSize: number },
) {
  const goods = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "icon_url"])
    .where("goods_id", "=", input.goodsId)
    .executeTakeFirst();
  if (!goods) return fail("Not Found", unknownGoodsMessage(input.goodsId));
  const completed = ctx.db
    .selectFrom("trades")
    .where("goods_id", "=", input.goodsId)
    .where("state", "=", sql.lit("SUCCESS"));
  const [rows, count] = await Promise.all([
    completed
      .select(["trade_id", "price", "updated_at", "buy_order_id", "asset"])
      .orderBy("updated_at", "desc")
      .orderBy("trade_id", "desc")
      .limit(input.pageSize)
      .offset((input.pageNum - 1) * input.pageSize)
      .execute(),
    completed.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  const totalCount = Number(count.total);
  return ok({
    items: rows.map((row) => {
      const asset = row.asset as AssetInfo;
      return {
        id: String(row.trade_id),
        appid: 730,
        game: RECORD_GAME,
        goods_id: input.goodsId,
        price: formatMoney(row.price),
        type: row.buy_order_id === null ? 1 : 2,
        transact_time: toUnixSeconds(row.updated_at),
        asset_info: {
          paintwear: asset.paintwear,
          paintseed: asset.info.paintseed,
          paintindex: asset.info.paintindex,
          stickers: asset.info.stickers,
          keychains: asset.info.keychains,
          icon_url: goods.icon_url,
        },
      };
    }),
    page_num: input.pageNum,
    page_size: input.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / input.pageSize),
  });
}
