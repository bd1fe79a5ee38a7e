import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sequenceEvents } from "../../src/domain/events/sequence-events.ts";
import { readGoodsPrices } from "../../src/domain/market/read-goods-prices.ts";
import { parseSimulationSettings } from "../../src/domain/simulation/simulation-settings.ts";
import { loadSimulationState } from "../../src/domain/simulation/simulation-state.ts";
import { simulationStep } from "../../src/domain/simulation/simulation-step.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import { SimulationRunner } from "../../src/domain/simulation/simulation-runner.ts";
import { describeAction, eventLines, openWorld, type World } from "./simulated-world.ts";
import { enqueueWebhookDeliveries } from "../../src/domain/webhooks/enqueue.ts";
import { STEAM_RATIO } from "../../src/domain/simulation/steam-market-walk.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";

/** The sandbox Steam market's prices, goods by goods. */
async function steamPrices(database: DatabaseHandle) {
  return database.db
    .selectFrom("sandbox_steam_market_prices")
    .select(["goods_id", "price", "volume"])
    .orderBy("goods_id")
    .execute();
}

const STEPS = 240;
const SETTINGS = { seed: 42, goods: 4, makers: 2, noise: 3, snipers: 1, clock_speed: 61, rate: 1 };

describe("the simulated market", () => {
  let first: World;
  const actionsOfFirst: string[] = [];
  const fairAt = new Map<number, Map<number, number>>();
  const askAt = new Map<number, Map<number, number>>();
  const steamAt = new Map<number, Map<number, number>>();

  before(async () => {
    first = await openWorld(SETTINGS);
    for (let step = 0; step < STEPS; step++) {
      const report = await simulationStep(first.env, first.state);
      for (const action of report.actions) actionsOfFirst.push(describeAction(report.step, action));
      // Every step leaves the books balanced.
      await assertLedgerInvariants(first.database.db);
      if (step === 60 || step === STEPS - 1) {
        fairAt.set(step, new Map(first.state.goods.map((goods) => [goods.goodsId, goods.fair])));
        const prices = await readGoodsPrices(
          first.env.ctx,
          first.state.goods.map((goods) => goods.goodsId),
          { platformPrice: true },
        );
        askAt.set(step, new Map([...prices].map(([goodsId, price]) => [goodsId, price.sellMin])));
        steamAt.set(step, new Map([...prices].map(([goodsId, price]) => [goodsId, price.platformPrice])));
      }
    }
  });

  after(() => first?.database.close());

  test("the agents trade: every kind of action happens, trades are delivered and settle", async () => {
    const counts = first.state.actions;
    for (const type of ["list", "bid", "buy", "deliver", "accept"])
      assert.ok((counts[type] ?? 0) > 0, `no ${type} in ${JSON.stringify(counts)}`);
    const trades = await first.database.db
      .selectFrom("trades")
      .select(({ fn }) => ["state", fn.countAll<number>().as("count")])
      .groupBy("state")
      .execute();
    const byState = Object.fromEntries(trades.map((row) => [row.state, Number(row.count)]));
    assert.ok((byState.SUCCESS ?? 0) > 0, JSON.stringify(byState));
    const ok = actionsOfFirst.filter((line) => line.endsWith(" OK")).length;
    assert.ok(ok > STEPS / 2, `only ${ok} actions succeeded`);
  });

  test("the clock moved a few simulated hours", () => {
    assert.ok(first.env.clock.offsetMs >= 3 * 3600_000, `offset ${first.env.clock.offsetMs}`);
  });

  test("the state is saved: a restart resumes at the next step with the same fair values", async () => {
    const saved = await loadSimulationState(first.env.ctx);
    assert.ok(saved);
    assert.equal(saved.step, STEPS);
    assert.deepEqual(saved.goods, first.state.goods);
    assert.deepEqual(saved.actions, first.state.actions);
  });

  test("prices move with the fair values: the lowest ask follows their drift", () => {
    let compared = 0;
    for (const goods of first.state.goods) {
      const fairBefore = fairAt.get(60)!.get(goods.goodsId)!;
      const fairAfter = fairAt.get(STEPS - 1)!.get(goods.goodsId)!;
      const askBefore = askAt.get(60)!.get(goods.goodsId)!;
      const askAfter = askAt.get(STEPS - 1)!.get(goods.goodsId)!;
      assert.ok(askAfter > 0, `goods ${goods.goodsId} has no ask`);
      // The ask stays near the fair value: within the makers' and noise traders' reach.
      assert.ok(Math.abs(askAfter / fairAfter - 1) < 0.15, `ask ${askAfter} against fair ${fairAfter}`);
      if (Math.abs(fairAfter / fairBefore - 1) < 0.08 || askBefore === 0) continue;
      compared += 1;
      assert.equal(
        Math.sign(askAfter - askBefore),
        Math.sign(fairAfter - fairBefore),
        `goods ${goods.goodsId}: fair ${fairBefore} -> ${fairAfter}, ask ${askBefore} -> ${askAfter}`,
      );
    }
    assert.ok(compared > 0, "no fair value drifted far enough to compare");
  });

  test("the sandbox's Steam market walks around ours: within its ratios of the fair value, with a point for today", async () => {
    const rows = await steamPrices(first.database);
    assert.equal(rows.length, first.state.goods.length, "every simulated goods has a Steam price");
    let moved = 0;
    for (const goods of first.state.goods) {
      const steam = steamAt.get(STEPS - 1)!.get(goods.goodsId)!;
      const fair = fairAt.get(STEPS - 1)!.get(goods.goodsId)!;
      // platform_price (readGoodsPrices) is the Steam price; it stands above our market.
      assert.ok(
        steam >= Math.round(fair * STEAM_RATIO.min) - 1 && steam <= Math.round(fair * STEAM_RATIO.max) + 1,
        `goods ${goods.goodsId}: Steam ${steam} against fair ${fair}`,
      );
      if (steam !== steamAt.get(60)!.get(goods.goodsId)) moved += 1;
    }
    assert.ok(moved > 0, "no Steam price moved");
    const today = first.env.ctx.clock.now().toISOString().slice(0, 10);
    const points = await first.database.db
      .selectFrom("sandbox_steam_market_history")
      .select(["goods_id", "price"])
      .where("day", "=", today)
      .execute();
    assert.equal(points.length, first.state.goods.length);
    for (const point of points) {
      const steam = rows.find((row) => row.goods_id === point.goods_id)!.price;
      assert.equal(Number(point.price), Math.round(Number(steam) * 0.97), "today's median: 97 % of the ask");
    }
  });

  test("what the agents do becomes events", async () => {
    for (;;) {
      const round = await sequenceEvents({ ...first.env.ctx, actor: { kind: "system" } }, [
        enqueueWebhookDeliveries,
      ]);
      if (round.state === "done" && !round.more) break;
    }
    const types = await first.database.db.selectFrom("events").select("type").distinct().execute();
    const names = new Set(types.map((row) => row.type));
    for (const type of ["trade.created", "listing.created", "buy_order.created", "trade.delivered"])
      assert.ok(names.has(type), `no ${type} among ${[...names].join(", ")}`);
  });

  test("the same seed, settings and world give the same actions and the same events", async () => {
    const second = await openWorld(SETTINGS);
    try {
      const actions: string[] = [];
      for (let step = 0; step < STEPS; step++) {
        const report = await simulationStep(second.env, second.state);
        for (const action of report.actions) actions.push(describeAction(report.step, action));
      }
      assert.deepEqual(actions, actionsOfFirst);
      assert.deepEqual(second.state.goods, first.state.goods);
      assert.deepEqual(await steamPrices(second.database), await steamPrices(first.database));
      // The events too, in the log's order: what a bot watching the stream would have seen.
      const eventsOfFirst = await eventLines(first);
      assert.ok(eventsOfFirst.length > STEPS, `only ${eventsOfFirst.length} events`);
      assert.deepEqual(await eventLines(second), eventsOfFirst);
    } finally {
      await second.database.close();
    }
  });

  test("a step that ends after a sandbox reset deleted the state does not bring it back", async () => {
    await first.database.db.deleteFrom("system_settings").where("key", "=", "sandbox_simulation").execute();
    await simulationStep(first.env, first.state);
    assert.equal(await loadSimulationState(first.env.ctx), undefined);
  });
});

describe("simulation settings", () => {
  test("defaults fill what is not given", () => {
    const parsed = parseSimulationSettings({ seed: 3 });
    assert.ok(parsed.ok);
    assert.equal(parsed.value.seed, 3);
    assert.equal(parsed.value.goods, 8);
  });

  for (const [input, field] of [
    [{ seed: -1 }, "seed"],
    [{ seed: 1.5 }, "seed"],
    [{ rate: 0 }, "rate"],
    [{ rate: "fast" }, "rate"],
    [{ goods: 0 }, "goods"],
    [{ goods: [1, 1] }, "goods"],
    [{ makers: 51 }, "makers"],
    [{ makers: 0, noise: 0, snipers: 0 }, "makers"],
    [{ clock_speed: 0.5 }, "clock_speed"],
    [{ never_deliver: 2 }, "never_deliver"],
  ] as const) {
    test(`${JSON.stringify(input)} is refused naming ${field}`, () => {
      const parsed = parseSimulationSettings(input);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.failure.message, new RegExp(`^${field}: `));
    });
  }

  test("two instances resume one simulation: only the runner holding the lease steps, another takes over when it stops", async () => {
    const world = await openWorld(SETTINGS);
    try {
      const steps = [0, 0];
      const runners = [0, 1].map(
        (index) => new SimulationRunner(world.env, { leaseSeconds: 3, onStep: () => (steps[index]! += 1) }),
      );
      await runners[0]!.resume();
      await until(() => steps[0]! > 0);
      await runners[1]!.resume();
      // Three more steps of the first at one a second: the second runner tried as often, over a
      // whole lease (3 s), and found it renewed each time.
      const mark = steps[0]!;
      await until(() => steps[0]! >= mark + 3);
      assert.equal(steps[1], 0, "the second waits while the lease is renewed");
      await runners[0]!.close();
      await until(() => steps[1]! > 0);
      await runners[1]!.close();
    } finally {
      await world.database.close();
    }
  });
});

/** Resolves once `condition` holds, looking every 50 ms (the test's own timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}
