import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { readCatalogFile } from "../../src/domain/catalog/catalog-file.ts";
import { DemoRandom } from "../../src/domain/simulation/demo-random.ts";
import {
  askingPrice,
  finishOf,
  typicalPrice,
  type PricedGoods,
} from "../../src/domain/simulation/demo-prices.ts";

/** The demo market's price rules (docs/design/platform-and-sandbox.md#demo-prices), over the whole real catalog. */

const EXTERIORS = ["wearcategory0", "wearcategory1", "wearcategory2", "wearcategory3", "wearcategory4"];
const PLAIN: Record<string, string> = { stattrak: "normal", souvenir: "normal", unusual_stattrak: "unusual" };

let goods: PricedGoods[];

/** Inside the suite, not at the top: test files share a process, where a file's top-level hooks run around every file's tests. */
async function loadGoods(): Promise<void> {
  goods = (await readCatalogFile()).map((row) => ({
    goods_id: row.goodsId,
    market_hash_name: row.marketHashName,
    short_name: row.shortName,
    type: row.type,
    quality: row.quality,
    exterior: row.exterior,
    tags: row.tags.map((tag) => ({
      id: tag.id,
      category: tag.category,
      internal_name: tag.internalName,
      localized_name: tag.localizedName,
    })),
  }));
}

function rarityOf(each: PricedGoods): string | undefined {
  return each.tags.find((tag) => tag.category === "rarity")?.internal_name;
}

/** The typical prices by skin, quality and exterior. */
function bySkin(seed: number): Map<string, number> {
  const prices = new Map<string, number>();
  for (const each of goods) {
    if (each.exterior === null) continue;
    prices.set(`${each.short_name}|${each.quality}|${each.exterior}`, typicalPrice(each, seed));
  }
  return prices;
}

describe("demo prices", () => {
  before(loadGoods);

  for (const seed of [1, 7]) {
    test(`a skin's better exterior is never cheaper (seed ${seed}); weapons' are strictly dearer`, () => {
      const prices = bySkin(seed);
      const unordered: string[] = [];
      let pairs = 0;
      for (const each of goods) {
        if (each.exterior === null) continue;
        const price = prices.get(`${each.short_name}|${each.quality}|${each.exterior}`)!;
        for (const worse of EXTERIORS.slice(EXTERIORS.indexOf(each.exterior) + 1)) {
          const cheaper = prices.get(`${each.short_name}|${each.quality}|${worse}`);
          if (cheaper === undefined) continue;
          pairs += 1;
          const ordered = each.type === "weapon" ? price > cheaper : price >= cheaper;
          if (!ordered) unordered.push(`${each.market_hash_name} ${price} vs ${worse} ${cheaper}`);
        }
      }
      assert.ok(pairs > 20_000, `${pairs} pairs`);
      assert.deepEqual(unordered, []);
    });

    test(`StatTrak™ and souvenir are dearer than the plain item (seed ${seed})`, () => {
      const prices = bySkin(seed);
      const unordered: string[] = [];
      let pairs = 0;
      for (const each of goods) {
        const plain = PLAIN[each.quality];
        if (each.exterior === null || plain === undefined) continue;
        const cheaper = prices.get(`${each.short_name}|${plain}|${each.exterior}`);
        if (cheaper === undefined) continue;
        pairs += 1;
        const price = prices.get(`${each.short_name}|${each.quality}|${each.exterior}`)!;
        if (!(price > cheaper)) unordered.push(`${each.market_hash_name} ${price} vs ${cheaper}`);
      }
      assert.ok(pairs > 5_000, `${pairs} pairs`);
      assert.deepEqual(unordered, []);
    });
  }

  test("every knife and gloves fetches more than any consumer-grade skin, and at least 700 yuan", () => {
    const knives = goods.filter((each) => each.type === "knife" || each.type === "gloves");
    const consumer = goods.filter((each) => each.type === "weapon" && rarityOf(each) === "common_weapon");
    assert.ok(knives.length > 3000 && consumer.length > 1000);
    const cheapestKnife = Math.min(...knives.map((each) => typicalPrice(each, 1)));
    const dearestConsumer = Math.max(...consumer.map((each) => typicalPrice(each, 1)));
    assert.ok(cheapestKnife >= 70_000, `${cheapestKnife}`);
    assert.ok(cheapestKnife > 10 * dearestConsumer, `${cheapestKnife} vs ${dearestConsumer}`);
    // Consumer-grade skins cost a few yuan at most; souvenirs of them a little more.
    const plain = consumer.filter((each) => each.quality === "normal").map((each) => typicalPrice(each, 1));
    assert.ok(Math.max(...plain) <= 1_000, `${Math.max(...plain)}`);
    assert.ok(median(plain) <= 200, `${median(plain)}`);
  });

  test("rarity orders the weapon skins: each grade's median above the one below", () => {
    const grades = [
      "common_weapon",
      "uncommon_weapon",
      "rare_weapon",
      "mythical_weapon",
      "legendary_weapon",
      "ancient_weapon",
    ];
    const medians = grades.map((grade) =>
      median(
        goods
          .filter((each) => each.type === "weapon" && each.quality === "normal" && rarityOf(each) === grade)
          .map((each) => typicalPrice(each, 1)),
      ),
    );
    for (let index = 1; index < medians.length; index++) {
      assert.ok(medians[index]! > 2 * medians[index - 1]!, JSON.stringify(medians));
    }
  });

  test("the same seed gives the same prices, whatever was priced in between; another seed others", () => {
    const first = goods.map((each) => typicalPrice(each, 1));
    const other = goods.map((each) => typicalPrice(each, 2));
    const again = goods.map((each) => typicalPrice(each, 1));
    assert.deepEqual(again, first);
    const differing = first.filter((price, index) => price !== other[index]).length;
    assert.ok(differing > goods.length * 0.9, `${differing}`);
  });

  test("a Doppler gem and a low float ask more; the same draws ask the same", () => {
    const ask = (phase: string | undefined, wearPosition: number | undefined) =>
      askingPrice(100_000, new DemoRandom(1, 9, 9), { phase, wearPosition }, 100_000_000);
    assert.ok(ask("ruby", undefined) > 4 * ask("phase_1", undefined));
    assert.ok(ask(undefined, 0) > ask(undefined, 1));
    assert.equal(ask("phase_2", 0.5), ask("phase_2", 0.5));
    assert.ok(ask(undefined, undefined) >= 100_000 && ask(undefined, undefined) <= 135_000);
  });

  test("a knife's or glove's finish is read from its name", () => {
    assert.equal(finishOf("★ StatTrak™ Karambit | Lore (Field-Tested)"), "Lore");
    assert.equal(finishOf("★ Sport Gloves | Pandora's Box (Battle-Scarred)"), "Pandora's Box");
    assert.equal(finishOf("★ Bayonet"), null);
  });
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}
