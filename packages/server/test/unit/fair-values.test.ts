import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DemoRandom } from "../../src/domain/simulation/demo-random.ts";
import { orderByWear, walkFairValues, WEAR_STEP } from "../../src/domain/simulation/fair-values.ts";
import { DEFAULT_BEHAVIOUR } from "../../src/domain/simulation/start-simulation.ts";
import type { SimulatedGoods } from "../../src/domain/simulation/simulation-state.ts";

const BEHAVIOUR = { ...DEFAULT_BEHAVIOUR, neverDeliver: 0 };

/** A skin in five exteriors whose prices on sale came out of order, another skin, and a case. */
function market(): SimulatedGoods[] {
  const skin = (goodsId: number, wear: number, price: number): SimulatedGoods => ({
    goodsId,
    anchor: price,
    fair: price,
    family: "AK-47 | Redline|normal",
    wear,
  });
  return [
    skin(1, 0, 9_000),
    skin(2, 1, 9_500), // Minimal Wear listed above Factory New
    skin(3, 2, 5_000),
    skin(4, 3, 5_200), // Well-Worn above Field-Tested
    skin(5, 4, 3_000),
    { goodsId: 6, anchor: 12_000, fair: 12_000, family: "AWP | Asiimov|normal", wear: 2 },
    { goodsId: 7, anchor: 250, fair: 250, family: "Recoil Case|normal" },
  ];
}

function inWearOrder(goods: readonly SimulatedGoods[], field: "fair" | "anchor"): boolean {
  const skin = goods
    .filter((one) => one.family === "AK-47 | Redline|normal")
    .sort((a, b) => a.wear! - b.wear!);
  return skin.every((one, index) => index === 0 || skin[index - 1]![field] >= one[field] * WEAR_STEP - 1e-9);
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [ma, mb] = [mean(a), mean(b)];
  let [cov, va, vb] = [0, 0, 0];
  for (let index = 0; index < a.length; index++) {
    cov += (a[index]! - ma) * (b[index]! - mb);
    va += (a[index]! - ma) ** 2;
    vb += (b[index]! - mb) ** 2;
  }
  return cov / Math.sqrt(va * vb);
}

/** Fair values walk with wear respected (docs/design/simulation.md#the-step). */
describe("simulated fair values", () => {
  test("a skin's exteriors are put in order at the start, the others left as they are", () => {
    const goods = market();
    assert.equal(inWearOrder(goods, "anchor"), false);
    orderByWear(goods, "anchor", "fair");
    assert.equal(inWearOrder(goods, "anchor"), true);
    assert.equal(inWearOrder(goods, "fair"), true);
    assert.equal(goods[0]!.fair, 9_500 * WEAR_STEP, "Factory New raised above Minimal Wear");
    assert.equal(goods[2]!.fair, 5_200 * WEAR_STEP, "Field-Tested raised above Well-Worn");
    assert.equal(goods[4]!.fair, 3_000, "the worst exterior keeps its value");
    assert.deepEqual(
      goods.slice(5).map((one) => one.fair),
      [12_000, 250],
    );
  });

  test("over 2,000 steps the exteriors stay in order and move together; other skins move on their own", () => {
    const goods = market();
    orderByWear(goods, "anchor", "fair");
    const returns = new Map<number, number[]>(goods.map((one) => [one.goodsId, []]));
    for (let step = 1; step <= 2000; step++) {
      const before = goods.map((one) => one.fair);
      walkFairValues(goods, BEHAVIOUR, new DemoRandom(7, 1, step));
      assert.ok(inWearOrder(goods, "fair"), `wear's order at step ${step}`);
      goods.forEach((one, index) => returns.get(one.goodsId)!.push(Math.log(one.fair / before[index]!)));
    }
    const together = correlation(returns.get(1)!, returns.get(3)!);
    assert.ok(together > 0.6, `Factory New and Field-Tested move together (${together.toFixed(2)})`);
    const apart = correlation(returns.get(3)!, returns.get(6)!);
    assert.ok(Math.abs(apart) < 0.2, `two skins move apart (${apart.toFixed(2)})`);
    assert.ok(goods.every((one) => one.fair >= 20));
  });

  test("the same draws give the same walk", () => {
    const [a, b] = [market(), market()];
    for (let step = 1; step <= 50; step++) {
      walkFairValues(a, BEHAVIOUR, new DemoRandom(3, 1, step));
      walkFairValues(b, BEHAVIOUR, new DemoRandom(3, 1, step));
    }
    assert.deepEqual(a, b);
  });
});
