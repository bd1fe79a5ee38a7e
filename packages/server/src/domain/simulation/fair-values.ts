import type { DemoRandom } from "./demo-random.ts";
import type { DomainContext } from "../context.ts";
import type { AgentBehaviour, SimulatedGoods } from "./simulation-state.ts";

/** Fair values never fall below this, in fen (a fee must leave the seller something). */
export const MIN_FAIR_FEN = 20;

/**
 * How much of a goods' step comes from its family (one skin in one quality, every exterior): the
 * exteriors of a skin move together, as a real skin's do, and each a little on its own. The two
 * shares' squares add up to one, so a goods' volatility is the behaviour's whatever its family.
 */
const FAMILY_SHARE = 0.9;
const OWN_SHARE = Math.sqrt(1 - FAMILY_SHARE ** 2);

/** A better exterior of a skin is valued at least this much above the next worse one. */
export const WEAR_STEP = 1.03;

/** What ties a goods to others of its skin: its family and its exterior's rank (0: Factory New). */
export interface GoodsTraits {
  family: string;
  wear?: number;
}

/** The traits of some goods, read from the catalog: family `short name|quality`, exterior's rank. */
export async function readGoodsTraits(
  ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<Map<number, GoodsTraits>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "short_name", "quality", "exterior"])
    .where("goods_id", "in", [...goodsIds])
    .execute();
  return new Map(
    rows.map((row) => {
      // `wearcategory0` (Factory New) to `wearcategory4` (Battle-Scarred).
      const rank = row.exterior === null ? undefined : Number(/^wearcategory(\d)$/.exec(row.exterior)?.[1]);
      return [
        row.goods_id,
        {
          family: `${row.short_name}|${row.quality}`,
          ...(rank === undefined || Number.isNaN(rank) ? {} : { wear: rank }),
        },
      ];
    }),
  );
}

/**
 * One step of every goods' fair value: `log fair += volatility * shock + 0.002 * (log anchor - log
 * fair)`, where a goods' shock is its family's (drawn once per family and step) and its own mixed,
 * plus now and then a jump of its own; never below `MIN_FAIR_FEN`. Then the exteriors of each family
 * are put in order (`orderByWear`). Draws come in the goods' order, each family's at its first goods.
 */
export function walkFairValues(goods: SimulatedGoods[], behaviour: AgentBehaviour, random: DemoRandom): void {
  const { volatility, jumpChance, jumpSize } = behaviour;
  const families = new Map<string, number>();
  const sizes = familySizes(goods);
  for (const one of goods) {
    let shock: number;
    if (one.family !== undefined && sizes.get(one.family)! > 1) {
      let family = families.get(one.family);
      if (family === undefined) {
        family = random.normal();
        families.set(one.family, family);
      }
      shock = FAMILY_SHARE * family + OWN_SHARE * random.normal();
    } else shock = random.normal();
    let log = Math.log(one.fair);
    log += volatility * shock + 0.002 * (Math.log(one.anchor) - log);
    if (random.chance(jumpChance)) log += (random.chance(0.5) ? 1 : -1) * jumpSize * (0.5 + random.next());
    one.fair = Math.max(MIN_FAIR_FEN, Math.exp(log));
  }
  orderByWear(goods, "fair");
}

/**
 * Keeps wear's order within each family: from the worst exterior up, each better one is valued at
 * least `WEAR_STEP` times the one below it (raised when the walk or its start put it lower), so a
 * Factory New skin never trades below its Field-Tested self. `fields` are the values put in order:
 * the fair value after each step, both it and the anchor (where the walk returns) when goods join.
 */
export function orderByWear(goods: SimulatedGoods[], ...fields: ("fair" | "anchor")[]): void {
  const byFamily = new Map<string, SimulatedGoods[]>();
  for (const one of goods) {
    if (one.family === undefined || one.wear === undefined) continue;
    const members = byFamily.get(one.family) ?? [];
    members.push(one);
    byFamily.set(one.family, members);
  }
  for (const members of byFamily.values()) {
    if (members.length < 2) continue;
    members.sort((a, b) => b.wear! - a.wear!);
    for (const field of fields)
      for (let index = 1; index < members.length; index++) {
        const floor =
          members[index - 1]![field] * WEAR_STEP ** (members[index - 1]!.wear! - members[index]!.wear!);
        if (members[index]![field] < floor) members[index]![field] = floor;
      }
  }
}

function familySizes(goods: readonly SimulatedGoods[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const one of goods)
    if (one.family !== undefined) sizes.set(one.family, (sizes.get(one.family) ?? 0) + 1);
  return sizes;
}
