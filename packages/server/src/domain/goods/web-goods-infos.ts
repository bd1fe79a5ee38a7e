import type { DomainContext } from "../context.ts";
import type { GoodsRecord } from "./find-goods.ts";
import { readMarketFigures, type MarketFigures } from "./goods-page-figures.ts";
import { toWebGoodsInfo } from "./list-goods-sell-orders.ts";

export interface WebGoodsInfos {
  /** The website's `goods_infos`, keyed by goods id as text. */
  infos: Record<string, ReturnType<typeof toWebGoodsInfo>>;
  goods: Map<number, GoodsRecord>;
  figures: Map<number, MarketFigures>;
}

/**
 * The goods a page of the user's own items names, as the website's `goods_infos` (the listings
 * page's, `toWebGoodsInfo`), with their catalog rows and live figures for the items themselves.
 */
export async function readWebGoodsInfos(
  ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<WebGoodsInfos> {
  const ids = [...new Set(goodsIds)];
  if (ids.length === 0) return { infos: {}, goods: new Map(), figures: new Map() };
  const [rows, figures] = await Promise.all([
    ctx.db.selectFrom("goods").selectAll().where("goods_id", "in", ids).execute(),
    readMarketFigures(ctx, ids),
  ]);
  const goods = new Map(rows.map((row) => [row.goods_id, row]));
  const infos = Object.fromEntries(
    rows.map((row) => [String(row.goods_id), toWebGoodsInfo(row, figures.get(row.goods_id)!)]),
  );
  return { infos, goods, figures };
}
