import { isDeepStrictEqual } from "node:util";
import type { DomainContext } from "../context.ts";
import { computeMarketFigures, type GoodsFigures, type GoodsRange } from "./market-figures.ts";
import { marketCatalog } from "./market-goods.ts";
import { sameEntry, toPriceEntry, type PriceEntry, type PriceSnapshot } from "./price-snapshot.ts";
import { nextCooldownEnd, readGoodsRanks, readLiquidityRanks } from "./price-snapshot-reads.ts";
import { SnapshotEntries } from "./snapshot-entries.ts";

/**
 * Goods an update reads per set of statements: a larger batch (many changed goods, many
 * cooldowns ended at once) is read in slices, with a turn of the event loop between them, rather
 * than the whole market (docs/design/market-snapshots.md#updates-per-changed-goods). Above the recheck's slice (about 620 goods of
 * the 37,000-goods catalog), so that a recheck with the changes of its second is one set.
 */
const GOODS_PER_UPDATE = 1000;

/**
 * The snapshot with the figures of `changed` read again from the database now (docs/design/market-snapshots.md#the-rolling-recheck), a slice of `GOODS_PER_UPDATE` goods at a time, and with `ranks` the liquidity ranks
 * read again: the other goods keep their entries (the same objects), and a goods whose figures
 * and rank came out the same keeps its entry too; the snapshot itself when nothing differs.
 * Undefined when the catalog changed since the snapshot was built: the whole market is read then.
 */
export async function updateSnapshot(
  ctx: DomainContext,
  snapshot: PriceSnapshot,
  changed: ReadonlySet<number>,
  options: { cooldownEnded?: boolean; ranks?: boolean; range?: GoodsRange } = {},
): Promise<PriceSnapshot | undefined> {
  const { cooldownEnded = false, ranks = false, range } = options;
  const catalog = await marketCatalog(ctx);
  if (catalog !== snapshot.catalog) return undefined;
  const goodsIds = [...changed].filter((goodsId) => catalog.byId.has(goodsId)).sort((a, b) => a - b);
  if (goodsIds.length === 0 && !cooldownEnded && !ranks) return snapshot;
  const builtAt = ctx.clock.now();
  const readRanks = ranks ? await readLiquidityRanks(ctx) : snapshot.liquidity;
  const liquidity = isDeepStrictEqual(readRanks, snapshot.liquidity) ? snapshot.liquidity : readRanks;
  const figures = new Map<number, GoodsFigures>();
  // After a cooldown's end the next one is the market's, read from its index; else the earliest
  // among the goods read.
  let cooldown = cooldownEnded ? await nextCooldownEnd(ctx, builtAt) : null;
  // The goods of `range` are read as a range of ids (the plan of a whole build's chunk: one pass
  // over the listings' goods index), the others by their ids, a slice at a time.
  const inRange = (goodsId: number) => range !== undefined && goodsId >= range.from && goodsId <= range.to;
  const reads: ({ goodsIds: readonly number[] } | { goodsRange: GoodsRange })[] = range
    ? [{ goodsRange: range }]
    : [];
  const byIds = goodsIds.filter((goodsId) => !inRange(goodsId));
  for (let start = 0; start < byIds.length; start += GOODS_PER_UPDATE)
    reads.push({ goodsIds: byIds.slice(start, start + GOODS_PER_UPDATE) });
  for (const [index, choice] of reads.entries()) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const [readFigures, readCooldown] = await Promise.all([
      computeMarketFigures(ctx, catalog, { now: builtAt, ...choice }),
      cooldownEnded ? null : nextCooldownEnd(ctx, builtAt, choice),
    ]);
    for (const [goodsId, goodsFigures] of readFigures) figures.set(goodsId, goodsFigures);
    if (readCooldown && (!cooldown || readCooldown < cooldown)) cooldown = readCooldown;
  }
  let differs = liquidity !== snapshot.liquidity;
  // The entries that change (a goods that left the market as `undefined`), laid over the
  // snapshot's: the update costs the goods it changes, not the market, and the snapshot replaced
  // keeps its view for whoever still reads it (docs/design/market-snapshots.md#entries-shared-between-snapshots).
  const changes = new Map<number, PriceEntry | undefined>();
  const current = (goodsId: number) =>
    changes.has(goodsId) ? changes.get(goodsId) : snapshot.entries.get(goodsId);
  if (liquidity !== snapshot.liquidity)
    for (const [goodsId, entry] of snapshot.entries) {
      const liquidityRank = liquidity.get(goodsId) ?? 0;
      // A new rank is a new figure of the entry's: it takes the moment it was found.
      if (entry.liquidityRank !== liquidityRank)
        changes.set(goodsId, { ...entry, liquidityRank, foundAt: builtAt });
    }
  for (const goodsId of goodsIds) {
    const before = current(goodsId);
    const goodsFigures = figures.get(goodsId);
    if (!goodsFigures) {
      if (before) {
        differs = true;
        changes.set(goodsId, undefined);
      }
      continue;
    }
    const after = toPriceEntry(
      catalog.byId.get(goodsId)!,
      goodsFigures,
      liquidity.get(goodsId) ?? 0,
      builtAt,
    );
    if (before && sameEntry(before, after)) continue;
    differs = true;
    changes.set(goodsId, after);
  }
  // A cooldown ending among the goods read may come before the snapshot's next one; one that
  // ended or went away leaves the snapshot's, which at worst updates early.
  const previous = snapshot.nextCooldownEnd;
  const next = cooldownEnded
    ? cooldown
    : cooldown && (!previous || cooldown < previous)
      ? cooldown
      : previous;
  if (!differs && next === previous) return snapshot;
  return {
    ...snapshot,
    builtAt,
    // A goods new to the market takes its place in id order, as a whole build puts it.
    entries: SnapshotEntries.of(snapshot.entries).withChanges(changes),
    liquidity,
    nextCooldownEnd: next,
  };
}

/**
 * The snapshot's catalog and liquidity ranks with the figures of the goods named read from the
 * database now (index-backed: each query keeps to those goods' listings and buy orders), and
 * their ranks too when the ranks changed since the snapshot was built.
 */
export async function readGoodsSnapshot(
  ctx: DomainContext,
  snapshot: PriceSnapshot,
  goods: { goodsIds?: readonly number[]; marketHashNames?: readonly string[] },
  ranks: boolean,
): Promise<PriceSnapshot> {
  const ids = new Set<number>();
  for (const id of goods.goodsIds ?? []) if (snapshot.catalog.byId.has(id)) ids.add(id);
  for (const name of goods.marketHashNames ?? []) {
    const known = snapshot.catalog.byName.get(name);
    if (known) ids.add(known.goods_id);
  }
  const builtAt = ctx.clock.now();
  const [figures, liquidity] = await Promise.all([
    computeMarketFigures(ctx, snapshot.catalog, { now: builtAt, goodsIds: [...ids] }),
    ranks && ids.size > 0 ? readGoodsRanks(ctx, snapshot.liquidity, [...ids]) : snapshot.liquidity,
  ]);
  const entries = new Map<number, PriceEntry>();
  for (const [goodsId, goodsFigures] of figures) {
    const known = snapshot.catalog.byId.get(goodsId)!;
    const read = toPriceEntry(known, goodsFigures, liquidity.get(goodsId) ?? 0, builtAt);
    // Figures the snapshot holds already keep the time they were found, as an update keeps them.
    const held = snapshot.entries.get(goodsId);
    entries.set(goodsId, held && sameEntry(held, read) ? held : read);
  }
  return { ...snapshot, builtAt, entries, liquidity };
}
