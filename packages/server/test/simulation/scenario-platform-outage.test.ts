import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readPlatformFault } from "../../src/platform/sandbox/platform-fault.ts";
import { countActions, openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `platform-outage`: five minutes in, the platform goes down for an hour. Inventory
 * reads and trade offers fail with a clear error, no trade settles meanwhile, and once the
 * platform is back the waiting trades are delivered and settle.
 */
describe("scenario platform-outage", () => {
  let world: World;
  const successes = async () =>
    Number(
      (
        await world.database.db
          .selectFrom("trades")
          .select(({ fn }) => fn.countAll<number>().as("count"))
          .where("state", "=", "SUCCESS")
          .executeTakeFirstOrThrow()
      ).count,
    );
  let duringFirst = -1;
  let duringLast = -1;
  let inventoryFailure = "";

  before(async () => {
    world = await openWorld({
      seed: 11,
      goods: 3,
      makers: 2,
      noise: 3,
      snipers: 1,
      clock_speed: 61,
      rate: 1,
    });
    await step(world, 30);
    await startBuiltin(world, "platform-outage");
    // 60 s a step: the outage runs from the 6th step to the 65th after the start.
    await step(world, 75, async () => {
      const effect = world.state.scenario!.effects[0]!;
      if (effect.state !== "active") return;
      const count = await successes();
      if (duringFirst < 0) {
        duringFirst = count;
        const agent = world.state.agents[0]!;
        const read = await world.env.ctx.platform.readInventory(world.env.ctx, {
          platformid: agent.platformid,
        });
        inventoryFailure = read.ok ? "" : read.failure.message;
      }
      duringLast = count;
    });
    await step(world, 40);
  });
  after(() => world?.database.close());

  test("while down, inventory reads fail with a clear error and deliveries are refused", () => {
    assert.match(inventoryFailure, /game platform is unavailable/);
    const refused = world.lines.filter((line) => line.includes(" deliver ") && line.includes("unavailable"));
    assert.ok(refused.length > 0, "no delivery was refused during the outage");
  });

  test("no trade settles while it is down; they settle once it is back", async () => {
    assert.ok(duringFirst >= 0, "the outage never began");
    assert.equal(duringLast, duringFirst, "trades settled during the outage");
    assert.ok((await successes()) > duringLast, "no trade settled after the outage");
    assert.ok(countActions(world, "deliver", "OK") > 0);
  });

  test("the outage began and ended through the fault switch, which is up again", async () => {
    assert.equal(countActions(world, "platform_down", "OK"), 1);
    assert.equal(countActions(world, "platform_up", "OK"), 1);
    assert.equal((await readPlatformFault(world.env.ctx)).down, false);
    assert.equal(world.state.scenario?.finished, true);
  });
});
