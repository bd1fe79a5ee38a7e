import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readGoodsPrices } from "../../src/domain/market/read-goods-prices.ts";
import { loadSimulationState } from "../../src/domain/simulation/simulation-state.ts";
import { openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `knife-crash` over a few simulated hours: knives join the simulation, their fair
 * values fall 30 % in an hour and the makers' asks follow; the books stay balanced after every
 * step; the same seed replays the same actions, also when the state is read back from the
 * database between steps (a restart).
 */
const SETTINGS = { seed: 7, goods: 3, makers: 2, noise: 2, snipers: 1, clock_speed: 61, rate: 1 };
const WARM_UP = 10;
const AFTER_START = 12;
const REST = 100;

async function knifeGoods(world: World): Promise<number[]> {
  const ids = world.state.goods.map((goods) => goods.goodsId);
  const rows = await world.database.db
    .selectFrom("goods")
    .select("goods_id")
    .where("type", "=", "knife")
    .where("goods_id", "in", ids)
    .orderBy("goods_id")
    .execute();
  return rows.map((row) => row.goods_id);
}

describe("scenario knife-crash", () => {
  let world: World;
  let knives: number[] = [];
  const fairBefore = new Map<number, number>();
  const askEarly = new Map<number, number>();

  before(async () => {
    world = await openWorld(SETTINGS);
    await step(world, WARM_UP);
    await startBuiltin(world, "knife-crash");
    await step(world, 1);
    knives = await knifeGoods(world);
    for (const goods of world.state.goods)
      if (knives.includes(goods.goodsId)) fairBefore.set(goods.goodsId, goods.fair);
    const prices = await readGoodsPrices(world.env.ctx, knives);
    for (const id of knives) askEarly.set(id, prices.get(id)?.sellMin ?? 0);
    await step(world, AFTER_START - 1 + REST);
  });
  after(() => world?.database.close());

  test("knives joined the simulation and the clock moved a few hours", () => {
    assert.equal(
      knives.length,
      2,
      `knives among ${world.state.goods.map((goods) => goods.goodsId).join(", ")}`,
    );
    assert.ok(world.env.clock.offsetMs >= 2 * 3600_000, `offset ${world.env.clock.offsetMs}`);
  });

  test("their fair values fell by about 30 %, and the lowest asks followed", async () => {
    const prices = await readGoodsPrices(world.env.ctx, knives);
    for (const id of knives) {
      const fair = world.state.goods.find((goods) => goods.goodsId === id)!.fair;
      const ratio = fair / fairBefore.get(id)!;
      assert.ok(ratio < 0.85 && ratio > 0.45, `goods ${id}: fair ${fairBefore.get(id)} -> ${fair}`);
      const askLate = prices.get(id)?.sellMin ?? 0;
      assert.ok(
        askEarly.get(id)! > 0 && askLate > 0,
        `goods ${id} has asks: ${askEarly.get(id)} -> ${askLate}`,
      );
      assert.ok(askLate < askEarly.get(id)! * 0.9, `goods ${id}: ask ${askEarly.get(id)} -> ${askLate}`);
    }
  });

  test("the scenario finished and its progress is in the saved state", async () => {
    const saved = await loadSimulationState(world.env.ctx);
    assert.equal(saved?.scenario?.name, "knife-crash");
    assert.equal(saved?.scenario?.finished, true);
    assert.equal(saved?.scenario?.effects[0]?.state, "done");
    assert.match(saved?.scenario?.effects[0]?.note ?? "", /goods .*: -30 %/);
  });

  test("the same seed replays the same actions, the state read back from the database every few steps", async () => {
    const second = await openWorld(SETTINGS);
    try {
      await step(second, WARM_UP);
      await startBuiltin(second, "knife-crash");
      for (let done = 0; done < AFTER_START + REST; done += 7) {
        // A restart: the runner reads the saved state, not the one in memory.
        second.state = (await loadSimulationState(second.env.ctx))!;
        await step(second, Math.min(7, AFTER_START + REST - done));
      }
      assert.deepEqual(second.lines, world.lines);
      assert.deepEqual(second.state.goods, world.state.goods);
    } finally {
      await second.database.close();
    }
  });
});
