import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { typicalPriceOf } from "../../src/domain/simulation/start-simulation.ts";
import { countActions, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `case-release`: a case with no market joins the simulation at four times its usual
 * price, the makers list it at once, buyers rush (heavy volume at first, fading), and its price
 * decays towards the usual one over six hours.
 */
describe("scenario case-release", () => {
  let world: World;
  let caseId = 0;
  let releaseFair = 0;
  const tradesPerHour: number[] = [];

  const tradesOf = async (goodsId: number) =>
    Number(
      (
        await world.database.db
          .selectFrom("trades")
          .select(({ fn }) => fn.countAll<number>().as("count"))
          .where("goods_id", "=", goodsId)
          .executeTakeFirstOrThrow()
      ).count,
    );

  before(async () => {
    world = await openWorld({
      seed: 21,
      goods: 2,
      makers: 2,
      noise: 3,
      snipers: 0,
      clock_speed: 361,
      rate: 1,
    });
    const containersBefore = new Set(world.state.goods.map((goods) => goods.goodsId));
    await step(world, 3);
    await startBuiltin(world, "case-release");
    await step(world, 1);
    const added = world.state.goods.find((goods) => !containersBefore.has(goods.goodsId));
    assert.ok(added, "no goods joined");
    caseId = added.goodsId;
    releaseFair = added.fair;
    // Six minutes a step: ten steps an hour, six hours.
    let before = await tradesOf(caseId);
    for (let hour = 0; hour < 6; hour++) {
      await step(world, 10);
      const now = await tradesOf(caseId);
      tradesPerHour.push(now - before);
      before = now;
    }
  });
  after(() => world?.database.close());

  test("a case without a market was released at about four times its usual price", async () => {
    const row = await world.database.db
      .selectFrom("goods")
      .select(["type", "is_standard"])
      .where("goods_id", "=", caseId)
      .executeTakeFirstOrThrow();
    assert.equal(row.type, "container");
    const usual = await typicalPriceOf(world.env.ctx, caseId, 21);
    assert.ok(releaseFair / usual > 3.5 && releaseFair / usual < 4.5, `${releaseFair} against ${usual}`);
  });

  test("buyers rushed at first and the volume faded", () => {
    assert.ok(
      countActions(world, "rush_buy", "OK") > 5,
      `rush buys: ${countActions(world, "rush_buy", "OK")}`,
    );
    const first = tradesPerHour[0]! + tradesPerHour[1]!;
    const last = tradesPerHour[4]! + tradesPerHour[5]!;
    assert.ok(first > last, `trades per hour ${tradesPerHour.join(", ")}`);
  });

  test("the price decayed towards the usual one", async () => {
    const fair = world.state.goods.find((goods) => goods.goodsId === caseId)!.fair;
    const usual = await typicalPriceOf(world.env.ctx, caseId, 21);
    assert.ok(fair < releaseFair * 0.5, `fair ${releaseFair} -> ${fair}`);
    assert.ok(fair < usual * 1.6, `fair ${fair} against usual ${usual}`);
    assert.equal(world.state.scenario?.finished, true);
  });
});
