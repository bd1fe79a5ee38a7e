import { sql } from "kysely";
import { sellerFee } from "../domain/market/seller-fee.ts";
import { DELIVERY_WINDOW_MS } from "../domain/market/delivery-window.ts";
import { offerMessage } from "../domain/trades/send-trade-offer.ts";
import type { SandboxAssetRow } from "../platform/sandbox/asset-rows.ts";
import { OFFER_LIFETIME_MS, TRADE_COOLDOWN_MS } from "../platform/sandbox/trade-offers.ts";
import { insertRows, reserveIds } from "./bulk-rows.ts";
import { mintDemoItem, type DemoGoods, type DemoItem } from "./demo-items.ts";
import { askingPrice } from "../domain/simulation/demo-prices.ts";
import { DemoRandom, STREAM } from "../domain/simulation/demo-random.ts";
import {
  ASSET_COLUMNS,
  assetInfo,
  assetJson,
  assetRow,
  INVENTORY_COLUMNS,
  inventoryRow,
  LISTING_COLUMNS,
  listingRow,
} from "./demo-rows.ts";
import { CUSHION_FEN, DAY_MS, HOUR_MS, MINUTE_MS, validPrice, type DemoWorld } from "./demo-world.ts";
import { writeDeposits } from "./write-demo-ledger.ts";

/** A goods with many completed trades: an item page worth a look. */
export interface BusiestGoods {
  goodsId: number;
  marketHashName: string;
  trades: number;
}

interface TradePlan {
  goods: DemoGoods;
  item: DemoItem;
  seller: number;
  buyer: number;
  listedAt: Date;
  acquiredAt: Date;
  boughtAt: Date;
  offeredAt: Date;
  completedAt: Date;
  price: number;
  fee: number;
}

/**
 * Weeks of completed trades, oldest first; answers the goods traded most. A trade is drawn
 * from its index alone, so the plans are not kept: a first pass keeps only each trade's time
 * (to number them oldest first) and what it tells the deposits and the busiest goods, and the
 * writing pass draws each trade again, in time order, a batch at a time.
 */
export async function writeDemoTrades(world: DemoWorld): Promise<BusiestGoods[]> {
  const count = world.trades;
  const boughtAt = new Float64Array(count);
  const tradesOf = new Map<DemoGoods, number>();
  // The money each trader brings: what their purchases cost, and a cushion for buy orders.
  for (const trader of world.traders) trader.deposit = CUSHION_FEN;
  world.progress("trade plans", 0, count);
  for (let index = 0; index < count; index++) {
    if (index % world.batch === 0 && index > 0) world.progress("trade plans", index, count);
    const plan = planTrade(world, index);
    boughtAt[index] = plan.boughtAt.getTime();
    tradesOf.set(plan.goods, (tradesOf.get(plan.goods) ?? 0) + 1);
    world.traders[plan.buyer]!.deposit += plan.price;
  }
  world.progress("trade plans", count, count);
  // Oldest first; trades at the same moment in the order they were drawn.
  const order = new Uint32Array(count);
  for (let index = 0; index < count; index++) order[index] = index;
  order.sort((a, b) => boughtAt[a]! - boughtAt[b]! || a - b);
  const busiest = [...tradesOf]
    .sort(([a, countA], [b, countB]) => countB - countA || a.goods_id - b.goods_id)
    .slice(0, 5)
    .map(([goods, trades]) => ({
      goodsId: goods.goods_id,
      marketHashName: goods.market_hash_name,
      trades,
    }));
  await writeDeposits(world);
  world.progress("trades", 0, count);

  const firstAsset = count > 0 ? await reserveIds(world.tx, { name: "sandbox_assetid_seq" }, 2 * count) : 0;
  const firstListing =
    count > 0 ? await reserveIds(world.tx, { table: "listings", column: "listing_id" }, count) : 0;
  const firstTrade =
    count > 0 ? await reserveIds(world.tx, { table: "trades", column: "trade_id" }, count) : 0;
  const firstOffer = count > 0 ? await reserveIds(world.tx, { name: "sandbox_tradeofferid_seq" }, count) : 0;
  for (let start = 0; start < count; start += world.batch) {
    const slice = Array.from(order.subarray(start, start + world.batch), (index) => planTrade(world, index));
    const assets: SandboxAssetRow[] = [];
    const inventory: object[] = [];
    const listings: object[] = [];
    const tradeRows: object[] = [];
    const offers: object[] = [];
    slice.forEach((plan, offset) => {
      const index = start + offset;
      const seller = world.traders[plan.seller]!;
      const buyer = world.traders[plan.buyer]!;
      const sold = firstAsset + 2 * index;
      const received = sold + 1;
      const listingId = firstListing + index;
      const tradeId = firstTrade + index;
      const offerId = firstOffer + index;
      const soldRow = assetRow(plan.goods, plan.item, {
        assetid: sold,
        platformid: seller.platformid,
        acquiredAt: plan.acquiredAt,
        tradableAfter: null,
        tradedTo: received,
        tradedFrom: null,
      });
      const receivedRow = assetRow(plan.goods, plan.item, {
        assetid: received,
        platformid: buyer.platformid,
        acquiredAt: plan.completedAt,
        tradableAfter: new Date(plan.completedAt.getTime() + TRADE_COOLDOWN_MS),
        tradedTo: null,
        tradedFrom: sold,
      });
      assets.push(soldRow, receivedRow);
      inventory.push(inventoryRow(plan.goods, receivedRow));
      listings.push({
        ...listingRow(plan.goods, plan.item, soldRow, {
          listingId,
          userId: seller.userId,
          price: plan.price,
          fee: plan.fee,
          createdAt: plan.listedAt,
        }),
        state: "SOLD",
        // Its trade is delivered: the item is committed to nothing (docs/design/domain-model.md#the-commitment-rule-for-items).
        trade_ended: true,
        updated_at: plan.boughtAt.toISOString(),
        asset: assetInfo(plan.goods, soldRow),
      });
      tradeRows.push({
        trade_id: tradeId,
        listing_id: listingId,
        buyer_id: buyer.userId,
        seller_id: seller.userId,
        goods_id: plan.goods.goods_id,
        assetid: sold,
        seller_platformid: seller.platformid,
        buyer_platformid: buyer.platformid,
        buyer_trade_url: buyer.tradeUrl,
        price: plan.price,
        fee: plan.fee,
        pay_method: "balance",
        paid_from: { balance: plan.price },
        state: "SUCCESS",
        tradeofferid: offerId,
        received_assetid: received,
        deliver_by: new Date(plan.boughtAt.getTime() + DELIVERY_WINDOW_MS).toISOString(),
        protected_until: plan.completedAt.toISOString(),
        released_at: plan.completedAt.toISOString(),
        created_at: plan.boughtAt.toISOString(),
        updated_at: plan.completedAt.toISOString(),
      });
      offers.push({
        tradeofferid: offerId,
        sender: seller.platformid,
        receiver: buyer.platformid,
        assetids: [sold],
        message: offerMessage(tradeId),
        state: "accepted",
        created_at: plan.offeredAt.toISOString(),
        updated_at: plan.completedAt.toISOString(),
        expires_at: new Date(plan.offeredAt.getTime() + OFFER_LIFETIME_MS).toISOString(),
        // The demo's history is settled: no trade of it is still under protection.
        reversible_until: plan.completedAt.toISOString(),
      });
      // The buyer pays into escrow; on delivery escrow pays the seller and the fee account.
      world.journal.entry("purchase_payment", plan.boughtAt, `listing:${listingId}`, {}, [
        [buyer.accounts.balance, -plan.price],
        [buyer.accounts.escrow, plan.price],
      ]);
      world.journal.entry("trade_payout", plan.completedAt, `trade:${tradeId}`, {}, [
        [buyer.accounts.escrow, -plan.price],
        [seller.accounts.balance, plan.price - plan.fee],
        [world.systemAccounts.fees, plan.fee],
      ]);
      buyer.balance -= plan.price;
      seller.balance += plan.price - plan.fee;
      world.feesTotal += plan.fee;
    });
    await insertRows(world.tx, "sandbox_assets", ASSET_COLUMNS, assets.map(assetJson));
    await insertRows(world.tx, "platform_inventory_items", INVENTORY_COLUMNS, inventory);
    await insertRows(world.tx, "listings", { ...LISTING_COLUMNS, asset: "jsonb" }, listings);
    await sql`
      INSERT INTO trades (trade_id, listing_id, buyer_id, seller_id, goods_id, assetid, seller_platformid,
        buyer_platformid, buyer_trade_url, price, fee, pay_method, paid_from, state, tradeofferid,
        received_assetid, asset, deliver_by, protected_until, released_at, created_at, updated_at)
      SELECT r.trade_id, r.listing_id, r.buyer_id, r.seller_id, r.goods_id, r.assetid, r.seller_platformid,
        r.buyer_platformid, r.buyer_trade_url, r.price, r.fee, r.pay_method, r.paid_from, r.state,
        r.tradeofferid, r.received_assetid, l.asset, r.deliver_by, r.protected_until, r.released_at, r.created_at,
        r.updated_at
      FROM jsonb_to_recordset(${JSON.stringify(tradeRows)}::jsonb) AS r(trade_id bigint, listing_id bigint,
        buyer_id bigint, seller_id bigint, goods_id integer, assetid bigint, seller_platformid text,
        buyer_platformid text, buyer_trade_url text, price bigint, fee bigint, pay_method text, paid_from jsonb,
        state text, tradeofferid bigint, received_assetid bigint, deliver_by timestamptz,
        protected_until timestamptz, released_at timestamptz, created_at timestamptz, updated_at timestamptz)
      JOIN listings l ON l.listing_id = r.listing_id
      ORDER BY r.trade_id
    `.execute(world.tx);
    await insertRows(
      world.tx,
      "sandbox_trade_offers",
      {
        tradeofferid: "bigint",
        sender: "text",
        receiver: "text",
        assetids: "jsonb",
        message: "text",
        state: "text",
        created_at: "timestamptz",
        updated_at: "timestamptz",
        expires_at: "timestamptz",
        reversible_until: "timestamptz",
      },
      offers,
    );
    // Entries after the next batch's first purchase wait, so that the journal is in time order.
    const next = start + world.batch < count ? boughtAt[order[start + world.batch]!] : undefined;
    await world.journal.flush(next === undefined ? undefined : new Date(next));
    world.progress("trades", Math.min(count, start + world.batch), count);
  }
  return busiest;
}

/** The index-th completed trade, drawn from the seed and the index alone. */
function planTrade(world: DemoWorld, index: number): TradePlan {
  const { seed, days } = world.settings;
  const span = days * DAY_MS - 4 * HOUR_MS;
  const historyStart = world.now.getTime() - days * DAY_MS;
  const random = new DemoRandom(seed, STREAM.trade, index);
  const goods = world.catalog.covered[world.catalog.popular.pick(random)]!;
  const item = mintDemoItem(goods, random, world.catalog.extras);
  const seller = random.int(0, world.traders.length - 1);
  const buyer = (seller + random.int(1, world.traders.length - 1)) % world.traders.length;
  // More trades lately than long ago, as a market that grows.
  const boughtAt = historyStart + span * Math.sqrt(random.next());
  const listedAt = Math.max(world.start.getTime(), boughtAt - random.int(10, 5 * 24 * 60) * MINUTE_MS);
  const acquiredAt = Math.max(
    world.traders[seller]!.createdAt.getTime() + MINUTE_MS,
    listedAt - random.int(0, 48 * 60) * MINUTE_MS,
  );
  const offeredAt = boughtAt + random.int(1, 90) * MINUTE_MS;
  const completedAt = offeredAt + random.int(1, 120) * MINUTE_MS;
  // Prices wander over the weeks: a slow wave per goods around the typical price.
  const typical = world.catalog.typical.get(goods.goods_id)!;
  const phase = new DemoRandom(seed, STREAM.trade, -1, goods.goods_id).next() * 2 * Math.PI;
  const wave = 1 + 0.08 * Math.sin(phase + ((boughtAt - historyStart) / DAY_MS) * 0.4);
  const price = validPrice(
    world.rules,
    askingPrice(typical * wave, random, item, world.rules.maxListingPriceFen),
  );
  return {
    goods,
    item,
    seller,
    buyer,
    listedAt: new Date(listedAt),
    acquiredAt: new Date(acquiredAt),
    boughtAt: new Date(boughtAt),
    offeredAt: new Date(offeredAt),
    completedAt: new Date(completedAt),
    price,
    fee: sellerFee(price, world.rules),
  };
}
