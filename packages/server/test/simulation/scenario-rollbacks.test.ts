import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { countActions, eventTypes, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `rollbacks`: half of the trades delivered over four hours are reversed by the
 * platform ten minutes later: item back to the seller, money back to the buyer in one entry (the
 * ledger invariants are checked after every step), `trade.rolled_back` in the event log.
 */
describe("scenario rollbacks", () => {
  let world: World;

  before(async () => {
    world = await openWorld({
      seed: 13,
      goods: 3,
      makers: 2,
      noise: 3,
      snipers: 1,
      clock_speed: 181,
      rate: 1,
    });
    await step(world, 5);
    await startBuiltin(world, "rollbacks");
    // Three minutes a step: four hours are 80 steps.
    await step(world, 85);
  });
  after(() => world?.database.close());

  test("delivered trades were rolled back, about half of those looked at", async () => {
    const rolledBack = await world.database.db
      .selectFrom("trades")
      .select(["trade_id", "seller_platformid", "received_assetid"])
      .where("rollback_by", "=", "platform_rollback")
      .execute();
    assert.ok(rolledBack.length > 0, "none was rolled back");
    assert.equal(countActions(world, "rollback", "OK"), rolledBack.length);
    // Each item is back in the seller's account, under a new assetid taken from the buyer's.
    for (const trade of rolledBack) {
      const back = await world.database.db
        .selectFrom("sandbox_assets")
        .select(["platformid", "traded_to_assetid"])
        .where("traded_from_assetid", "=", trade.received_assetid)
        .executeTakeFirstOrThrow();
      assert.equal(back.platformid, trade.seller_platformid);
    }
  });

  test("each rollback is one balanced journal entry and an event", async () => {
    const entries = await world.database.db
      .selectFrom("journal_entries")
      .select(({ fn }) => fn.countAll<number>().as("count"))
      .where("kind", "=", "trade_rollback")
      .executeTakeFirstOrThrow();
    assert.equal(Number(entries.count), countActions(world, "rollback", "OK"));
    const types = await eventTypes(world);
    // One for the seller, one for the buyer.
    assert.equal(types.get("trade.rolled_back"), 2 * countActions(world, "rollback", "OK"));
  });

  test("the scenario finished", () => {
    assert.equal(world.state.scenario?.finished, true);
  });
});
