import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readGoodsPrices } from "../../src/domain/market/read-goods-prices.ts";
import { loadSimulationState } from "../../src/domain/simulation/simulation-state.ts";
import { openWorld, startBuiltin, step, type World } from "./simulated-world.ts";

/**
 * The built-in `sticker-spike` over a few simulated hours: stickers join the simulation, their fair
 * values rise 60 % in an hour and the lowest asks follow them up (the makers requote, snipers and
 * buyers take what is left under the new value); the books stay balanced after every step.
 */
const SETTINGS = { seed: 11, goods: 3, makers: 2, noise: 2, snipers: 1, clock_speed: 61, rate: 1 };
const WARM_UP = 10;
const AFTER_START = 12;
const REST = 100;

async function stickerGoods(world: World): Promise<number[]> {
  const ids = world.state.goods.map((goods) => goods.goodsId);
  const rows = await world.database.db
    .selectFrom("goods")
    .select("goods_id")
    .where("type", "=", "sticker")
    .where("goods_id", "in", ids)
    .orderBy("goods_id")
    .execute();
  return rows.map((row) => row.goods_id);
}

describe("scenario sticker-spike", () => {
  let world: World;
  let stickers: number[] = [];
  const fairBefore = new Map<number, number>();
  const askEarly = new Map<number, number>();

  before(async () => {
    world = await openWorld(SETTINGS);
    await step(world, WARM_UP);
    await startBuiltin(world, "sticker-spike");
    await step(world, 1);
    stickers = await stickerGoods(world);
    for (const goods of world.state.goods)
      if (stickers.includes(goods.goodsId)) fairBefore.set(goods.goodsId, goods.fair);
    const prices = await readGoodsPrices(world.env.ctx, stickers);
    for (const id of stickers) askEarly.set(id, prices.get(id)?.sellMin ?? 0);
    await step(world, AFTER_START - 1 + REST);
  });
  after(() => world?.database.close());

  test("stickers joined the simulation and the clock moved a few hours", () => {
    assert.ok(
      stickers.length >= 2,
      `stickers among ${world.state.goods.map((goods) => goods.goodsId).join(", ")}`,
    );
    assert.ok(world.env.clock.offsetMs >= 2 * 3600_000, `offset ${world.env.clock.offsetMs}`);
  });

  test("their fair values rose by about 60 %, and the lowest asks followed them up", async () => {
    const prices = await readGoodsPrices(world.env.ctx, stickers);
    for (const id of stickers) {
      const fair = world.state.goods.find((goods) => goods.goodsId === id)!.fair;
      const ratio = fair / fairBefore.get(id)!;
      // +60 % is a log move of 0.47; the walk adds about 0.1 (one sigma) over these 110 steps.
      assert.ok(ratio > 1.25 && ratio < 2.2, `goods ${id}: fair ${fairBefore.get(id)} -> ${fair}`);
      const askLate = prices.get(id)?.sellMin ?? 0;
      assert.ok(
        askEarly.get(id)! > 0 && askLate > 0,
        `goods ${id} has asks: ${askEarly.get(id)} -> ${askLate}`,
      );
      assert.ok(askLate > askEarly.get(id)! * 1.2, `goods ${id}: ask ${askEarly.get(id)} -> ${askLate}`);
    }
  });

  test("the scenario finished and its progress is in the saved state", async () => {
    const saved = await loadSimulationState(world.env.ctx);
    assert.equal(saved?.scenario?.name, "sticker-spike");
    assert.equal(saved?.scenario?.finished, true);
    assert.equal(saved?.scenario?.effects[0]?.state, "done");
    assert.match(saved?.scenario?.effects[0]?.note ?? "", /goods .*: \+60 %/);
  });
});
