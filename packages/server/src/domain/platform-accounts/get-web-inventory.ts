import { formatMoney, type InventoryItem } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { readWebGoodsInfos } from "../goods/web-goods-infos.ts";
import { publicBook } from "../market/public-book.ts";
import { sellerFee } from "../market/seller-fee.ts";
import { fail, ok, type Result } from "../result.ts";
import { getPlatformInventory, type InventoryQuery } from "./get-platform-inventory.ts";

/**
 * The website's texts of an item's state and progress, in the English the real website answers
 * and the tools compare with (docs/design/website-account-and-selling-routes.md#the-websites-selling-routes).
 */
const TRADABLE = { state: 3, text: "Tradable" } as const;
const NOT_TRADABLE = { state: 1, text: "Not tradable" } as const;
const IDLE = { progress: 0, text: "Idle", toast: null } as const;
const ON_SALE = { progress: 1, text: "On sale", toast: "This item is on sale" } as const;

/**
 * The inventory of the signed-in user's platform account (website route `steam_inventory`): the
 * official inventory (`getPlatformInventory`, same copy, filters and sorts) of the account bound
 * first, each item with its listing when on sale and its goods in `goods_infos`.
 */
export async function getWebInventory(ctx: DomainContext, query: Omit<InventoryQuery, "platformid">) {
  const account = await firstBoundAccount(ctx);
  if (!account.ok) return account;
  const page = await getPlatformInventory(ctx, { ...query, platformid: account.value });
  if (!page.ok) return page;
  const { items } = page.value;
  const [listings, trading, bought, bids, goods] = await Promise.all([
    readListingsOf(ctx, account.value, items),
    readOpenTradesOf(ctx, account.value, items),
    readBoughtPrices(ctx, account.value, items),
    readBestBidsOfOthers(ctx, items),
    readWebGoodsInfos(
      ctx,
      items.map((item) => item.goods_id),
    ),
  ]);
  return ok({
    items: items.map((item) => {
      const catalog = goods.goods.get(item.goods_id);
      const listing = listings.get(Number(item.assetid));
      const state = item.tradable ? TRADABLE : NOT_TRADABLE;
      const progress = listing ? ON_SALE : IDLE;
      return {
        appid: 730,
        game: item.game,
        assetid: item.assetid,
        classid: item.asset_info.classid,
        contextid: item.asset_info.contextid,
        instanceid: item.asset_info.instanceid,
        goods_id: item.goods_id,
        market_hash_name: item.market_hash_name,
        name: catalog?.name ?? item.market_hash_name,
        short_name: catalog?.short_name ?? item.market_hash_name,
        icon_url: item.asset_info.info.icon_url,
        original_icon_url: item.asset_info.info.original_icon_url,
        platform_price: item.platform_price,
        steam_price: item.steam_price,
        sell_min_price: item.sell_min_price,
        buy_max_price: item.buy_max_price,
        sell_now_price: formatMoney(bids.get(item.goods_id) ?? 0),
        tradable: item.tradable,
        tradeable: item.tradable,
        tradable_time: item.tradable_time,
        state: state.state,
        state_text: state.text,
        state_toast: progress.toast,
        progress: progress.progress,
        progress_text: progress.text,
        sell_order_id: listing ? String(listing.listing_id) : null,
        sell_order_price: listing ? formatMoney(listing.price) : "",
        sell_order_income: listing ? formatMoney(listing.price - listing.fee) : "",
        sell_order_mode: listing ? (listing.force_buyer_send_offer ? 2 : 1) : 0,
        open_trade_id: trading.get(Number(item.assetid)) ?? null,
        asset_info: { ...item.asset_info, appid: 730 },
      };
    }),
    goods_infos: goods.infos,
    page_num: page.value.page_num,
    page_size: page.value.page_size,
    total_count: page.value.total_count,
    total_page: Math.ceil(page.value.total_count / page.value.page_size),
    seller_fee: { basis_points: ctx.rules.sellerFeeBasisPoints, min: formatMoney(sellerFee(0, ctx.rules)) },
    bought_prices: bought,
  });
}

/**
 * The platform account the website shows: the real website binds one per user; here a user may
 * bind several, and the website shows the one bound first (the others through the official route).
 */
export async function firstBoundAccount(ctx: DomainContext): Promise<Result<string>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const account = await ctx.db
    .selectFrom("bound_platform_accounts")
    .select("platformid")
    .where("user_id", "=", ctx.actor.userId)
    .orderBy("bound_at")
    .orderBy("platformid")
    .limit(1)
    .executeTakeFirst();
  return account
    ? ok(account.platformid)
    : fail("Invalid State", "no platform account is bound to you: bind one first");
}

async function readListingsOf(ctx: DomainContext, platformid: string, items: InventoryItem[]) {
  if (items.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom("listings")
    .select(["listing_id", "assetid", "price", "fee", "force_buyer_send_offer"])
    .where("platformid", "=", platformid)
    // Only the caller's own listings: an account bound before to someone else keeps theirs apart.
    .where("user_id", "=", ctx.actor.kind === "user" ? ctx.actor.userId : 0)
    .where("state", "=", "ON_SALE")
    .where(
      "assetid",
      "in",
      items.map((item) => Number(item.assetid)),
    )
    .execute();
  return new Map(rows.map((row) => [row.assetid, row]));
}

/**
 * The trades the page's items are sold in and not yet delivered, by assetid: the listing is gone
 * from sale, but the item is still in the seller's account until the offer completes, and it must
 * not be offered for sale again meanwhile.
 */
async function readOpenTradesOf(
  ctx: DomainContext,
  platformid: string,
  items: InventoryItem[],
): Promise<Map<number, string>> {
  if (items.length === 0 || ctx.actor.kind !== "user") return new Map();
  const rows = await ctx.db
    .selectFrom("trades")
    .select(["trade_id", "assetid"])
    .where("seller_id", "=", ctx.actor.userId)
    .where("seller_platformid", "=", platformid)
    .where("state", "in", ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"])
    .where(
      "assetid",
      "in",
      items.map((item) => Number(item.assetid)),
    )
    .execute();
  return new Map(rows.map((row) => [row.assetid, String(row.trade_id)]));
}

/**
 * The best price another user's order in the public book offers for each goods of the page, by
 * goods id: what "Sell now" sells at. The goods' `buy_max_price` counts the caller's own orders,
 * which they cannot sell to.
 */
async function readBestBidsOfOthers(
  ctx: DomainContext,
  items: InventoryItem[],
): Promise<Map<number, number>> {
  if (items.length === 0 || ctx.actor.kind !== "user") return new Map();
  const rows = await publicBook(ctx.db)
    .select((eb) => ["buy_orders.goods_id", eb.fn.max("buy_orders.price").as("price")])
    .where("buy_orders.user_id", "!=", ctx.actor.userId)
    .where("buy_orders.goods_id", "in", [...new Set(items.map((item) => item.goods_id))])
    .groupBy("buy_orders.goods_id")
    .execute();
  return new Map(rows.map((row) => [row.goods_id, Number(row.price)]));
}

/**
 * What the caller paid for the items of the page they bought on the marketplace (a completed
 * trade that delivered the item to this account), by assetid; the latest purchase wins.
 */
async function readBoughtPrices(
  ctx: DomainContext,
  platformid: string,
  items: InventoryItem[],
): Promise<Record<string, string>> {
  if (items.length === 0 || ctx.actor.kind !== "user") return {};
  const rows = await ctx.db
    .selectFrom("trades")
    .select(["received_assetid", "price"])
    .where("buyer_id", "=", ctx.actor.userId)
    .where("buyer_platformid", "=", platformid)
    .where("state", "=", "SUCCESS")
    .where(
      "received_assetid",
      "in",
      items.map((item) => Number(item.assetid)),
    )
    .orderBy("trade_id")
    .execute();
  const prices: Record<string, string> = {};
  for (const row of rows) prices[String(row.received_assetid)] = formatMoney(row.price);
  return prices;
}
