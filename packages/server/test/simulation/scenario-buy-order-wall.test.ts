import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readGoodsPrices } from "../../src/domain/market/read-goods-prices.ts";
import { countActions, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `buy-order-wall`: a whale places a buy order for 300 units 3 % under a goods' fair
 * value; it is the best bid of the goods while it stands and is cancelled after two hours.
 */
describe("scenario buy-order-wall", () => {
  let world: World;
  let wall: { buy_order_id: number; goods_id: number; price: number; num: number } | undefined;
  let bestBid = 0;

  before(async () => {
    world = await openWorld({
      seed: 17,
      goods: 3,
      makers: 2,
      noise: 3,
      snipers: 1,
      clock_speed: 121,
      rate: 1,
    });
    await step(world, 5);
    await startBuiltin(world, "buy-order-wall");
    await step(world, 1);
    const whale = world.state.agents.find((agent) => agent.kind === "whale");
    assert.ok(whale, "no whale");
    wall = await world.database.db
      .selectFrom("buy_orders")
      .select(["buy_order_id", "goods_id", "price", "num"])
      .where("user_id", "=", whale.userId)
      .executeTakeFirst();
    bestBid = (await readGoodsPrices(world.env.ctx, [wall!.goods_id])).get(wall!.goods_id)?.buyMax ?? 0;
    // Two minutes a step: the two hours end at the 61st step.
    await step(world, 65);
  });
  after(() => world?.database.close());

  test("a buy order for 300 units stood 3 % under the fair value, the best bid of its goods", () => {
    assert.ok(wall);
    assert.equal(wall.num, 300);
    assert.equal(bestBid, wall.price);
  });

  test("it was cancelled when the wall came down, and the whale never traded on its own", async () => {
    const order = await world.database.db
      .selectFrom("buy_orders")
      .select("state")
      .where("buy_order_id", "=", wall!.buy_order_id)
      .executeTakeFirstOrThrow();
    assert.notEqual(order.state, "progressing");
    assert.equal(countActions(world, "wall_removed", "OK"), 1);
    const whaleLines = world.lines.filter((line) => line.split(" ")[2] === "whale-0");
    assert.ok(
      whaleLines.every((line) => /^\d+ (bid|deposit|accept|wall_removed) /.test(line)),
      whaleLines.join("\n"),
    );
  });
});
