import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { countActions, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `non-delivery`: for three hours no seller sends the offer; the simulated buyers
 * cancel 30 minutes after their purchase through the buyer's cancel verb, and are refunded.
 */
describe("scenario non-delivery", () => {
  let world: World;
  let deliveredDuring = 0;

  before(async () => {
    world = await openWorld({
      seed: 3,
      goods: 3,
      makers: 2,
      noise: 3,
      snipers: 1,
      clock_speed: 181,
      rate: 1,
    });
    await step(world, 5);
    await startBuiltin(world, "non-delivery");
    // Three minutes a step: the effect's three hours are 60 steps.
    await step(world, 60, (actions) => {
      if (world.state.scenario!.effects[0]!.state === "active")
        deliveredDuring += actions.filter((action) => action.type === "deliver").length;
    });
    await step(world, 30);
  });
  after(() => world?.database.close());

  test("no seller delivered while it lasted", () => {
    assert.equal(deliveredDuring, 0);
  });

  test("buyers cancelled after 30 minutes, through the cancel verb, and got their money back", async () => {
    assert.ok(countActions(world, "cancel_purchase", "OK") > 0, "no purchase was cancelled");
    const cancelled = await world.database.db
      .selectFrom("trades")
      .select(["created_at", "updated_at"])
      .where("rollback_by", "=", "buyer_cancel")
      .execute();
    assert.ok(cancelled.length > 0);
    for (const trade of cancelled)
      assert.ok(
        trade.updated_at.getTime() - trade.created_at.getTime() >= 30 * 60_000,
        "cancelled too early",
      );
  });

  test("afterwards sellers deliver again and the share is restored", () => {
    assert.equal(world.state.behaviour.neverDeliver, 0.05);
    assert.ok(countActions(world, "deliver", "OK") > 0);
    assert.equal(world.state.scenario?.finished, true);
  });
});
