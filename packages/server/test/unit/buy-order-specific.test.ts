import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  meetsFilter,
  parseSpecific,
  specificFilter,
  supportedSpecifics,
  type SpecificGoods,
} from "../../src/domain/market/specific.ts";

const tag = (id: number, internal: string) => ({
  id,
  category: "phase",
  internal_name: internal,
  localized_name: internal.toUpperCase(),
});
const DOPPLER: SpecificGoods = {
  market_hash_name: "★ Karambit | Doppler (Factory New)",
  paintwear_min: "0",
  paintwear_max: "0.08",
  paint_index: 418,
  tags: [tag(1, "ruby"), tag(2, "phase_2"), tag(3, "phase_4")],
};
const FADE: SpecificGoods = {
  ...DOPPLER,
  market_hash_name: "★ Karambit | Fade (Factory New)",
  paint_index: 38,
  tags: [],
};
const STICKER: SpecificGoods = {
  market_hash_name: "Sticker | Crown (Foil)",
  paintwear_min: null,
  paintwear_max: null,
  paint_index: null,
  tags: [],
};

describe("buy order specific constraints", () => {
  test("each goods supports only the constraints its items have", () => {
    assert.deepEqual([...supportedSpecifics(DOPPLER)].sort(), ["paintseed", "paintwear", "phase"]);
    assert.deepEqual([...supportedSpecifics(FADE)].sort(), ["fade", "paintseed", "paintwear"]);
    assert.deepEqual([...supportedSpecifics(STICKER)], []);
  });

  test("phases are stored by internal name and become paint indexes", () => {
    const parsed = parseSpecific([{ type: "phase", values: ["RUBY", "phase_2"] }], DOPPLER);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, [{ type: "phase", values: ["ruby", "phase_2"] }]);
    const filter = specificFilter(parsed.value, DOPPLER);
    assert.deepEqual(filter.paintindexes, [415, 419]);
    assert.equal(meetsFilter(filter, { paintwear: "0.01", paintseed: 5, paintindex: 415 }), true);
    assert.equal(meetsFilter(filter, { paintwear: "0.01", paintseed: 5, paintindex: 418 }), false);
  });

  test("a fade range and a seed list narrow each other; wear is a half-open interval", () => {
    const parsed = parseSpecific(
      [
        { type: "fade", values: ["99", "100"] },
        { type: "paintseed", values: ["16", "12"] },
        { type: "paintwear", values: ["0.01", "0.02"] },
      ],
      FADE,
    );
    assert.ok(parsed.ok);
    const filter = specificFilter(parsed.value, FADE);
    assert.deepEqual(filter.paintseeds, [16]);
    assert.equal(meetsFilter(filter, { paintwear: "0.015", paintseed: 16, paintindex: 38 }), true);
    assert.equal(meetsFilter(filter, { paintwear: "0.02", paintseed: 16, paintindex: 38 }), false);
    assert.equal(meetsFilter(filter, { paintwear: null, paintseed: 16, paintindex: 38 }), false);
  });

  test("bad constraints are refused naming the entry and the field", () => {
    const refused = (input: Array<{ type: string; values: string[] }>, goods: SpecificGoods) => {
      const parsed = parseSpecific(input, goods);
      assert.equal(parsed.ok, false);
      return parsed.ok ? "" : parsed.failure.message;
    };
    assert.match(
      refused([{ type: "fade", values: ["90", "100"] }], DOPPLER),
      /^specific\.0\.type: .* has no fade/,
    );
    assert.match(
      refused([{ type: "phase", values: ["emerald"] }], DOPPLER),
      /^specific\.0\.values: must be phases/,
    );
    assert.match(refused([{ type: "fade", values: ["70", "100"] }], FADE), /^specific\.0\.values: /);
    assert.match(
      refused([{ type: "paintwear", values: ["0.5", "0.9"] }], FADE),
      /overlap the goods' wear range/,
    );
    assert.match(
      refused(
        [
          { type: "paintseed", values: ["1"] },
          { type: "paintseed", values: ["2"] },
        ],
        FADE,
      ),
      /^specific\.1\.type: paintseed is given twice/,
    );
    assert.match(refused([{ type: "colour", values: ["red"] }], FADE), /^specific\.0\.type: must be one of/);
  });
});
