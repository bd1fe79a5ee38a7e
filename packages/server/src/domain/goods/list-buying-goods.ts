import type { DomainContext } from "../context.ts";
import type { BuyingSort, CatalogIndex } from "./catalog-index.ts";
import { catalogPage, type CatalogQuery } from "./list-catalog-goods.ts";
import { searchOrder } from "./search-catalog.ts";

/**
 * The market's buying tab (website route `GET /api/market/goods/buying`, docs/design/website-goods-routes.md#the-websites-goods-pages): the catalog's goods that have buy orders in the public book, as catalog items. Its price is
 * the best buy order: `min_price`/`max_price` bound it and the price sorts order by it; the
 * default order puts the goods whose orders want the most units first.
 */
export async function listBuyingGoods(ctx: DomainContext, catalog: CatalogIndex, query: CatalogQuery) {
  const sort = catalog.buying.has(query.sortBy as BuyingSort) ? (query.sortBy as BuyingSort) : "buy_num.desc";
  const order = searchOrder(catalog, catalog.buying.get(sort)!, query.search, sort === "buy_num.desc");
  return catalogPage(ctx, order, query, (entry) => entry.buyMax);
}
