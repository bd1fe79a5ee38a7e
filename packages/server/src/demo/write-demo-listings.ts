import { sql } from "kysely";
import { sellerFee } from "../domain/market/seller-fee.ts";
import type { SandboxAssetRow } from "../platform/sandbox/asset-rows.ts";
import { TRADE_COOLDOWN_MS } from "../platform/sandbox/trade-offers.ts";
import { insertRows, reserveIds } from "./bulk-rows.ts";
import { mintDemoItem } from "./demo-items.ts";
import { askingPrice } from "../domain/simulation/demo-prices.ts";
import { DemoRandom, STREAM } from "../domain/simulation/demo-random.ts";
import {
  ASSET_COLUMNS,
  assetJson,
  assetRow,
  INVENTORY_COLUMNS,
  inventoryRow,
  LISTING_COLUMNS,
  listingRow,
} from "./demo-rows.ts";
import { DAY_MS, MINUTE_MS, validPrice, type DemoWorld } from "./demo-world.ts";

/** The share of listings whose item is still in its trade cooldown (pre-sell). */
const PRE_SELL_SHARE = 0.05;

/** Listings on sale; some of items still in trade cooldown (pre-sell). */
export async function writeDemoListings(world: DemoWorld): Promise<{ preSell: number; goods: number }> {
  const { seed, listings: spread, days, popularListings } = world.settings;
  const count = spread + popularListings.listings;
  world.progress("listings", 0, count);
  if (count === 0) return { preSell: 0, goods: 0 };
  const firstAsset = await reserveIds(world.tx, { name: "sandbox_assetid_seq" }, count);
  const firstListing = await reserveIds(world.tx, { table: "listings", column: "listing_id" }, count);
  let preSell = 0;
  const goodsOnSale = new Set<number>();
  for (let start = 0; start < count; start += world.batch) {
    const end = Math.min(count, start + world.batch);
    const assets: SandboxAssetRow[] = [];
    const inventory: object[] = [];
    const listings: object[] = [];
    for (let index = start; index < end; index++) {
      const random = new DemoRandom(seed, STREAM.listing, index);
      // The first listings cover the chosen goods once each; the rest follow popularity, then
      // the popular listings go to the most popular goods in turn.
      const goods =
        index < world.catalog.covered.length
          ? world.catalog.covered[index]!
          : index < spread
            ? world.catalog.covered[world.catalog.popular.pick(random)]!
            : world.catalog.mostPopular[(index - spread) % world.catalog.mostPopular.length]!;
      const item = mintDemoItem(goods, random, world.catalog.extras);
      const seller = world.traders[random.int(0, world.traders.length - 1)]!;
      const inCooldown = random.chance(PRE_SELL_SHARE);
      let acquiredAt: number;
      let tradableAfter: Date | null = null;
      let createdAt: number;
      if (inCooldown) {
        // Received by a trade a few days ago, listed while the cooldown runs.
        tradableAfter = new Date(world.now.getTime() + random.int(60, 7 * 24 * 60 - 1) * MINUTE_MS);
        acquiredAt = tradableAfter.getTime() - TRADE_COOLDOWN_MS;
        createdAt = acquiredAt + (world.now.getTime() - acquiredAt) * random.next();
        preSell += 1;
      } else {
        createdAt = world.now.getTime() - random.next() * days * DAY_MS;
        acquiredAt = Math.max(
          seller.createdAt.getTime() + MINUTE_MS,
          createdAt - random.int(0, 48 * 60) * MINUTE_MS,
        );
      }
      const price = validPrice(
        world.rules,
        askingPrice(world.catalog.typical.get(goods.goods_id)!, random, item, world.rules.maxListingPriceFen),
      );
      const row = assetRow(goods, item, {
        assetid: firstAsset + index,
        platformid: seller.platformid,
        acquiredAt: new Date(acquiredAt),
        tradableAfter,
        tradedTo: null,
        tradedFrom: null,
      });
      assets.push(row);
      inventory.push(inventoryRow(goods, row));
      listings.push({
        ...listingRow(goods, item, row, {
          listingId: firstListing + index,
          userId: seller.userId,
          price,
          fee: sellerFee(price, world.rules),
          createdAt: new Date(createdAt),
        }),
        allow_bargain: random.chance(0.15),
      });
      goodsOnSale.add(goods.goods_id);
      const cheapest = world.cheapest.get(goods.goods_id);
      if (cheapest === undefined || price < cheapest) world.cheapest.set(goods.goods_id, price);
    }
    await insertRows(world.tx, "sandbox_assets", ASSET_COLUMNS, assets.map(assetJson));
    await insertRows(world.tx, "platform_inventory_items", INVENTORY_COLUMNS, inventory);
    // The listing's asset record is the inventory copy's: it is read there, not sent twice.
    const columns = Object.keys(LISTING_COLUMNS);
    await sql`
      INSERT INTO listings (${sql.raw(columns.join(", "))}, asset)
      SELECT ${sql.raw(columns.map((name) => `r.${name}`).join(", "))}, i.asset
      FROM jsonb_to_recordset(${JSON.stringify(listings)}::jsonb) AS r(${sql.raw(
        Object.entries(LISTING_COLUMNS)
          .map(([name, type]) => `${name} ${type}`)
          .join(", "),
      )})
      JOIN platform_inventory_items i ON i.platformid = r.platformid AND i.assetid = r.assetid
      ORDER BY r.listing_id
    `.execute(world.tx);
    world.progress("listings", end, count);
  }
  return { preSell, goods: goodsOnSale.size };
}
