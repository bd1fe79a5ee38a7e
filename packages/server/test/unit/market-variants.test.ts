import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { averageFen, NO_FIGURES } from "../../src/domain/market/market-figures.ts";
import {
  coversEntry,
  fadePercentages,
  fadeRangeOf,
  FADE_RANGES,
  FLOAT_INTERVALS,
  phaseOf,
} from "../../src/domain/market/market-variants.ts";
import { toFloatItem, toLiquidityRank } from "../../src/domain/market/price-entries.ts";
import type { PriceEntry } from "../../src/domain/market/price-snapshot.ts";

const DOPPLER = {
  market_hash_name: "★ Karambit | Doppler (Factory New)",
  paint_index: 418,
  tags: [
    { id: 358, category: "phase", internal_name: "ruby", localized_name: "红宝石" },
    { id: 360, category: "phase", internal_name: "black_pearl", localized_name: "黑珍珠" },
    { id: 361, category: "phase", internal_name: "phase_1", localized_name: "P1" },
    { id: 364, category: "phase", internal_name: "phase_4", localized_name: "P4" },
    { id: 9, category: "weapon", internal_name: "weapon_knife_karambit", localized_name: "爪子刀" },
  ],
};

describe("market variants", () => {
  test("the 25 fixed paint-wear intervals run from 0.00 to 1.00 without gaps", () => {
    assert.equal(FLOAT_INTERVALS.length, 25);
    assert.equal(FLOAT_INTERVALS[0]!.min, "0.00");
    assert.equal(FLOAT_INTERVALS.at(-1)!.max, "1.00");
    for (let index = 1; index < FLOAT_INTERVALS.length; index++)
      assert.equal(FLOAT_INTERVALS[index]!.min, FLOAT_INTERVALS[index - 1]!.max);
  });

  test("a phase is read from the paint index's offset to Phase 1, by the goods' own phase tags", () => {
    assert.deepEqual(phaseOf(DOPPLER, 415), { tagId: 358, tagName: "红宝石", phase: "ruby" });
    assert.deepEqual(phaseOf(DOPPLER, 417), { tagId: 360, tagName: "黑珍珠", phase: "black_pearl" });
    assert.deepEqual(phaseOf(DOPPLER, 421), { tagId: 364, tagName: "P4", phase: "phase_4" });
    assert.equal(phaseOf(DOPPLER, 419), undefined, "phase 2 is not a tag of this goods");
    assert.equal(phaseOf(DOPPLER, null), undefined);
    assert.equal(phaseOf({ ...DOPPLER, paint_index: null }, 418), undefined);
  });

  test("fade ranges: each holds from <= % < to, the last also 100; ids never meet catalog tag ids", () => {
    assert.equal(fadeRangeOf(80)!.tagName, "80%-90%");
    assert.equal(fadeRangeOf(89.999)!.tagName, "80%-90%");
    assert.equal(fadeRangeOf(90)!.tagName, "90%-93%");
    assert.equal(fadeRangeOf(99.5)!.tagName, "99%-100%");
    assert.equal(fadeRangeOf(100)!.tagName, "99%-100%");
    assert.equal(fadeRangeOf(79.9), undefined);
    assert.ok(FADE_RANGES.every((range) => range.tagId > 1_000_000));
    const percentages = fadePercentages({ market_hash_name: "★ Karambit | Fade (Factory New)" })!;
    assert.ok(percentages.size >= 1000);
    assert.ok([...percentages.values()].every((percentage) => fadeRangeOf(percentage) !== undefined));
    assert.equal(fadePercentages({ market_hash_name: "★ Karambit | Marble Fade (Factory New)" }), undefined);
    assert.equal(fadePercentages({ market_hash_name: "AK-47 | Redline (Field-Tested)" }), undefined);
  });

  test("a buy order counts for an entry only when it takes every item of it", () => {
    const interval = { kind: "interval", min: "0.15", max: "0.18" } as const;
    assert.equal(coversEntry([], interval), true);
    assert.equal(coversEntry([{ type: "paintwear", values: ["0.15", "0.21"] }], interval), true);
    assert.equal(coversEntry([{ type: "paintwear", values: ["0.16", "0.21"] }], interval), false);
    assert.equal(
      coversEntry(
        [
          { type: "paintwear", values: ["0", "1"] },
          { type: "paintseed", values: ["661"] },
        ],
        interval,
      ),
      false,
    );
    assert.equal(
      coversEntry([{ type: "phase", values: ["ruby", "phase_1"] }], { kind: "phase", phase: "ruby" }),
      true,
    );
    assert.equal(
      coversEntry([{ type: "phase", values: ["phase_1"] }], { kind: "phase", phase: "ruby" }),
      false,
    );
    assert.equal(
      coversEntry([{ type: "fade", values: ["95", "100"] }], { kind: "fade", from: 97, to: 99 }),
      true,
    );
    assert.equal(
      coversEntry([{ type: "fade", values: ["95", "98"] }], { kind: "fade", from: 97, to: 99 }),
      false,
    );
  });

  test("the mean of the cheapest listings rounds half up to the fen", () => {
    assert.equal(averageFen([]), 0);
    assert.equal(averageFen([1, 2]), 2);
    assert.equal(averageFen([1, 1, 2]), 1);
    assert.equal(averageFen([1005, 1110, 1233]), 1116);
  });
});

describe("price entries", () => {
  const entry: PriceEntry = {
    goods_id: 7,
    market_hash_name: "AK-47 | Redline (Field-Tested)",
    name: "AK-47 | 红线 (久经沙场)",
    type: "weapon",
    whole: { ...NO_FIGURES, minPrice: 1005, sellNum: 2 },
    intervals: [{ ...NO_FIGURES, minPrice: 1005, sellNum: 1, minFloat: "0.15", maxFloat: "0.18" }],
    variants: [{ ...NO_FIGURES, preSellMinPrice: 99, preSellNum: 1, tagId: 358, tagName: "红宝石" }],
    liquidityRank: 8752,
    foundAt: new Date(1_700_000_000_000),
  };

  test("float/items: the rank on the whole goods only, then intervals, then variants", () => {
    assert.deepEqual(toFloatItem(entry).sales, [
      {
        min_price: "10.05",
        pre_sell_min_price: "0.00",
        sell_num: 2,
        pre_sell_num: 0,
        liquidity_rank: "87.52%",
      },
      {
        min_price: "10.05",
        pre_sell_min_price: "0.00",
        sell_num: 1,
        pre_sell_num: 0,
        min_float: "0.15",
        max_float: "0.18",
      },
      {
        min_price: "0.00",
        pre_sell_min_price: "0.99",
        sell_num: 0,
        pre_sell_num: 1,
        tag_id: 358,
        tag_name: "红宝石",
      },
    ]);
  });

  test("liquidity_rank: one entry for the whole goods, without name", () => {
    assert.deepEqual(toLiquidityRank({ ...entry, liquidityRank: 0 }), {
      goods_id: 7,
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      update_time: 1_700_000_000,
      sales: [{ liquidity_rank: "0.00%", tag_id: 0, tag_name: "全部" }],
    });
  });
});
