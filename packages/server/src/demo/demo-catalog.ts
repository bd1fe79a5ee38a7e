import type { Transaction } from "kysely";
import type { Database, GoodsTagRow } from "../storage/schema.ts";
import type { DemoGoods, Extra } from "./demo-items.ts";
import { coverageWeight, popularity, typicalPrice } from "../domain/simulation/demo-prices.ts";
import { DemoRandom, STREAM, WeightedPicker } from "../domain/simulation/demo-random.ts";

/** The catalog as a demo build sees it: the goods, their typical prices, which are on sale and how popular. */
export interface DemoCatalog {
  typical: Map<number, number>;
  /** The goods on sale, at least one listing each. */
  covered: DemoGoods[];
  /** Picks among `covered` by popularity. */
  popular: WeightedPicker;
  /** The most popular standard goods on sale, most first (`popularListings`). */
  mostPopular: DemoGoods[];
  extras: { stickers: Extra[]; charms: Extra[] };
}

/** Reads the catalog and draws which goods are on sale and how popular each is, from the seed. */
export async function loadDemoCatalog(
  tx: Transaction<Database>,
  settings: { seed: number; listings: number; popularListings: { goods: number } },
): Promise<DemoCatalog> {
  const rows = await tx
    .selectFrom("goods")
    .select([
      "goods_id",
      "market_hash_name",
      "short_name",
      "type",
      "quality",
      "exterior",
      "tags",
      "paintwear_min",
      "paintwear_max",
      "paint_index",
      "is_standard",
      "icon_url",
      "game_index",
    ])
    .orderBy("goods_id")
    .execute();
  const goods = rows.map((row) => ({ ...row, tags: parseTags(row.tags) }));
  const extras = {
    stickers: kitsOf(rows, "sticker"),
    charms: kitsOf(rows, "charm"),
  };
  const seed = settings.seed;
  const typical = new Map<number, number>();
  for (const each of goods) typical.set(each.goods_id, typicalPrice(each, seed));
  // Which goods are on sale: a weighted sample without replacement (Efraimidis-Spirakis keys),
  // at least one listing each; more than half the listings' count, up to the whole catalog.
  const coverage = Math.min(goods.length, Math.ceil((settings.listings * 55) / 100));
  const keyed = goods.map((each) => {
    const random = new DemoRandom(seed, STREAM.coverage, each.goods_id);
    return { goods: each, key: -Math.log(1 - random.next()) / coverageWeight(each) };
  });
  keyed.sort((a, b) => a.key - b.key || a.goods.goods_id - b.goods.goods_id);
  const covered = keyed.slice(0, coverage).map((entry) => entry.goods);
  const weights = covered.map((each) => popularity(each, typical.get(each.goods_id)!, seed));
  const popular = new WeightedPicker(weights);
  const mostPopular = covered
    .map((each, index) => ({ goods: each, weight: weights[index]! }))
    .filter((entry) => entry.goods.is_standard)
    .sort((a, b) => b.weight - a.weight || a.goods.goods_id - b.goods.goods_id)
    .slice(0, settings.popularListings.goods)
    .map((entry) => entry.goods);
  return { typical, covered, popular, mostPopular, extras };
}

function parseTags(tags: unknown): GoodsTagRow[] {
  return typeof tags === "string" ? (JSON.parse(tags) as GoodsTagRow[]) : (tags as GoodsTagRow[]);
}

/** The goods of one kit type an item can carry, with the game's own id of their kit. */
function kitsOf(
  rows: ReadonlyArray<{ type: string; game_index: number | null; market_hash_name: string }>,
  type: "sticker" | "charm",
): Extra[] {
  return rows.flatMap((row) =>
    row.type === type && row.game_index !== null
      ? [{ game_index: row.game_index, market_hash_name: row.market_hash_name }]
      : [],
  );
}
