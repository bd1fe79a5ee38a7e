import { insertRows, reserveIds } from "./bulk-rows.ts";
import { popularity } from "../domain/simulation/demo-prices.ts";
import { DemoRandom, STREAM, WeightedPicker } from "../domain/simulation/demo-random.ts";
import { CUSHION_FEN, DAY_MS, type DemoWorld } from "./demo-world.ts";

/**
 * Standing bids in the public book, each below the cheapest listing of its goods (a higher bid
 * would have bought it at once) and covered by its trader's money, as creating one requires.
 */
export async function writeDemoBuyOrders(world: DemoWorld): Promise<number> {
  const { seed, days } = world.settings;
  const count = world.buyOrders;
  world.progress("buy orders", 0, count);
  const listed = world.catalog.covered.filter((goods) => {
    const cheapest = world.cheapest.get(goods.goods_id) ?? 0;
    return cheapest >= 10 && cheapest < CUSHION_FEN;
  });
  if (count === 0 || listed.length === 0) return 0;
  const picker = new WeightedPicker(
    listed.map((goods) => popularity(goods, world.cheapest.get(goods.goods_id)!, seed)),
  );
  const first = await reserveIds(world.tx, { table: "buy_orders", column: "buy_order_id" }, count);
  for (let start = 0; start < count; start += world.batch) {
    const rows: object[] = [];
    for (let index = start; index < Math.min(count, start + world.batch); index++) {
      const random = new DemoRandom(seed, STREAM.buyOrder, index);
      const goods = listed[picker.pick(random)]!;
      const cheapest = world.cheapest.get(goods.goods_id)!;
      const price = Math.max(2, Math.min(cheapest - 1, Math.floor(cheapest * (0.7 + 0.27 * random.next()))));
      const trader = world.traders[random.int(0, world.traders.length - 1)]!;
      const num = Math.max(
        1,
        Math.min(price < 2000 ? random.int(1, 20) : random.int(1, 3), Math.floor(CUSHION_FEN / price)),
      );
      const createdAt = new Date(world.now.getTime() - random.next() * days * DAY_MS).toISOString();
      rows.push({
        buy_order_id: first + index,
        user_id: trader.userId,
        goods_id: goods.goods_id,
        price,
        num,
        pay_method: random.chance(0.5) ? "balance" : null,
        specific: [],
        allow_tradable_cooldown: random.chance(0.2),
        platformid: trader.platformid,
        trade_url: trader.tradeUrl,
        state: "progressing",
        created_at: createdAt,
        updated_at: createdAt,
      });
    }
    await insertRows(
      world.tx,
      "buy_orders",
      {
        buy_order_id: "bigint",
        user_id: "bigint",
        goods_id: "integer",
        price: "bigint",
        num: "integer",
        pay_method: "text",
        specific: "jsonb",
        allow_tradable_cooldown: "boolean",
        platformid: "text",
        trade_url: "text",
        state: "text",
        created_at: "timestamptz",
        updated_at: "timestamptz",
      },
      rows,
    );
    world.progress("buy orders", Math.min(count, start + world.batch), count);
  }
  return count;
}
