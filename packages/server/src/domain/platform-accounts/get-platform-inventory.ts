import { formatMoney, RECORD_GAME, type AssetInfo, type Fen, type InventoryItem } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { toUnixSeconds } from "../clock.ts";
import { platformPriceFields } from "../market/platform-names.ts";
import { parsePriceRange, type PriceRange } from "../market/price-range.ts";
import { readGoodsPrices, type GoodsPrices } from "../market/read-goods-prices.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { refreshInventory } from "./refresh-inventory.ts";
import {
  requireBoundAccount,
  storedCookies,
  UPLOAD_COOKIES_HINT,
  type BoundAccount,
} from "./require-bound-account.ts";

export interface InventoryQuery {
  platformid: string;
  pageNum: number;
  pageSize: number;
  force: boolean;
  minPrice?: unknown;
  maxPrice?: unknown;
  search?: string;
  minPaintwear?: number;
  maxPaintwear?: number;
  sortBy: string;
  state: "all" | "tradable" | "cansell" | "onsale";
  nametagOnly: boolean;
}

export interface InventoryPage {
  items: InventoryItem[];
  total_count: number;
  page_num: number;
  page_size: number;
}

const NO_PRICES: GoodsPrices = { sellMin: 0, buyMax: 0, buyOrderNum: 0, platformPrice: 0 };

/** How long the marketplace's copy of a public inventory is served before it is read again. */
export const INVENTORY_REFRESH_SECONDS = 300;

/** `state` and `state_text` of an inventory item (docs/design/website-buying-routes.md#the-websites-buying-routes). */
const STATES = { tradable: [0, "可交易"], cooldown: [1, "交易冷却中"], onSale: [2, "出售中"] } as const;

interface Row {
  assetid: number;
  goodsId: number;
  name: string;
  marketHashName: string;
  paintwear: number | null;
  hasNametag: boolean;
  tradableAfter: Date | null;
  acquiredAt: Date;
  asset: AssetInfo;
  prices: GoodsPrices;
  price: Fen;
  onSale: boolean;
}

/**
 * The inventory of a platform account bound to the caller (reference: platform/inventory), from
 * the marketplace's copy: refreshed with the stored cookies when `force` is set, otherwise from
 * the public inventory once the copy is older than five minutes.
 */
export async function getPlatformInventory(
  ctx: DomainContext,
  query: InventoryQuery,
): Promise<Result<InventoryPage>> {
  const bounds = parsePriceRange(query.minPrice, query.maxPrice);
  if (!bounds.ok) return bounds;
  if (
    query.minPaintwear !== undefined &&
    query.maxPaintwear !== undefined &&
    query.minPaintwear > query.maxPaintwear
  ) {
    return invalidArgument("min_paintwear", "must not be greater than max_paintwear");
  }
  const account = await requireBoundAccount(ctx, query.platformid);
  if (!account.ok) return account;
  const fresh = await ensureFreshCopy(ctx, account.value, query.force);
  if (!fresh.ok) return fresh;

  const rows = await readCopy(ctx, query.platformid);
  const now = ctx.clock.now();
  const matching = rows.filter((row) => matches(row, query, bounds.value, now));
  matching.sort(comparator(query.sortBy));
  const start = (query.pageNum - 1) * query.pageSize;
  return ok({
    items: matching.slice(start, start + query.pageSize).map((row) => toRecord(row, now)),
    total_count: matching.length,
    page_num: query.pageNum,
    page_size: query.pageSize,
  });
}

async function ensureFreshCopy(
  ctx: DomainContext,
  account: BoundAccount,
  force: boolean,
): Promise<Result<unknown>> {
  if (force) {
    const cookies = storedCookies(ctx, account);
    if (!cookies)
      return fail(
        "Invalid State",
        `force=1 reads the inventory with the stored platform cookies, and there are none; ${UPLOAD_COOKIES_HINT}`,
      );
    const state = await ctx.platform.validateSession(ctx, { platformid: account.platformid, cookies });
    if (state !== "valid")
      return fail("Invalid State", `the stored platform cookies are ${state}; ${UPLOAD_COOKIES_HINT}`);
    return refreshInventory(ctx, { platformid: account.platformid, cookies });
  }
  const age = account.inventory_refreshed_at
    ? ctx.clock.now().getTime() - account.inventory_refreshed_at.getTime()
    : Infinity;
  if (age < INVENTORY_REFRESH_SECONDS * 1000) return ok(undefined);
  const refreshed = await refreshInventory(ctx, { platformid: account.platformid });
  if (refreshed.ok || account.inventory_refreshed_at) return ok(undefined);
  return fail(
    "Invalid State",
    "the inventory is private: make it public with POST /api/market/developer/platform/setup, or upload cookies and ask with force=1",
  );
}

async function readCopy(ctx: DomainContext, platformid: string): Promise<Row[]> {
  const rows = await ctx.db
    .selectFrom("platform_inventory_items")
    .innerJoin("goods", "goods.goods_id", "platform_inventory_items.goods_id")
    .select([
      "platform_inventory_items.assetid",
      "platform_inventory_items.goods_id",
      "platform_inventory_items.paintwear",
      "platform_inventory_items.has_nametag",
      "platform_inventory_items.tradable_after",
      "platform_inventory_items.acquired_at",
      "platform_inventory_items.asset",
      "goods.name",
      "goods.market_hash_name",
    ])
    .where("platform_inventory_items.platformid", "=", platformid)
    .execute();
  const prices = await readGoodsPrices(ctx, [...new Set(rows.map((row) => row.goods_id))], {
    platformPrice: true,
  });
  const listings = new Map(
    (
      await ctx.db
        .selectFrom("listings")
        .select(["assetid", "price"])
        .where("platformid", "=", platformid)
        .where("state", "=", "ON_SALE")
        .execute()
    ).map((listing) => [listing.assetid, listing.price]),
  );
  return rows.map((row) => ({
    assetid: row.assetid,
    goodsId: row.goods_id,
    name: row.name,
    marketHashName: row.market_hash_name,
    paintwear: row.paintwear === null ? null : Number(row.paintwear),
    hasNametag: row.has_nametag,
    tradableAfter: row.tradable_after,
    acquiredAt: row.acquired_at,
    asset: row.asset as AssetInfo,
    prices: prices.get(row.goods_id) ?? NO_PRICES,
    // An item on sale is priced by its listing; any other item by its goods' market price.
    price: listings.get(row.assetid) ?? prices.get(row.goods_id)?.sellMin ?? 0,
    onSale: listings.has(row.assetid),
  }));
}

function matches(row: Row, query: InventoryQuery, bounds: PriceRange, now: Date): boolean {
  const inCooldown = row.tradableAfter !== null && row.tradableAfter > now;
  if (query.state === "tradable" && inCooldown) return false;
  if (query.state === "cansell" && row.onSale) return false;
  if (query.state === "onsale" && !row.onSale) return false;
  if (query.nametagOnly && !row.hasNametag) return false;
  if (bounds.min !== undefined && row.price < bounds.min) return false;
  if (bounds.max !== undefined && row.price > bounds.max) return false;
  if (query.minPaintwear !== undefined && (row.paintwear === null || row.paintwear < query.minPaintwear))
    return false;
  if (query.maxPaintwear !== undefined && (row.paintwear === null || row.paintwear > query.maxPaintwear))
    return false;
  if (query.search) {
    const needle = query.search.trim().toLowerCase();
    if (!row.name.toLowerCase().includes(needle) && !row.marketHashName.toLowerCase().includes(needle))
      return false;
  }
  return true;
}

/** `float.*` sorts are the reference's other name for `paintwear.*`; items without wear go last. */
function comparator(sortBy: string): (a: Row, b: Row) => number {
  const [field, direction] = sortBy.split(".") as [string, "asc" | "desc"];
  const sign = direction === "asc" ? 1 : -1;
  const key = (row: Row): number | null =>
    field === "time" ? row.acquiredAt.getTime() : field === "price" ? row.price : row.paintwear;
  return (a, b) => {
    const left = key(a);
    const right = key(b);
    if (left === null || right === null)
      return left === right ? a.assetid - b.assetid : left === null ? 1 : -1;
    return left === right ? sign * (a.assetid - b.assetid) : sign * (left - right);
  };
}

function toRecord(row: Row, now: Date): InventoryItem {
  const inCooldown = row.tradableAfter !== null && row.tradableAfter > now;
  const [state, stateText] = row.onSale ? STATES.onSale : inCooldown ? STATES.cooldown : STATES.tradable;
  return {
    appid: 730,
    game: RECORD_GAME,
    assetid: String(row.assetid),
    market_hash_name: row.marketHashName,
    goods_id: row.goodsId,
    ...platformPriceFields(row.prices.platformPrice),
    sell_min_price: formatMoney(row.prices.sellMin),
    buy_max_price: formatMoney(row.prices.buyMax),
    tradable: !inCooldown,
    tradable_time: inCooldown && row.tradableAfter ? toUnixSeconds(row.tradableAfter) : null,
    state,
    state_text: stateText,
    asset_info: row.asset,
  };
}
