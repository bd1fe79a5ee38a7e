import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { computeMarketFigures } from "./market-figures.ts";
import { marketCatalog } from "./market-goods.ts";
import { sameEntry, toPriceEntry, type PriceEntry, type PriceSnapshot } from "./price-snapshot.ts";
import { nextCooldownEnd, readLiquidityRanks } from "./price-snapshot-reads.ts";

/** Entries compared per turn of the event loop by `keepUnchangedEntries`. */
const COMPARED_PER_TURN = 2000;

/**
 * What a whole build `built` should leave as the snapshot, given the one it replaces: `previous`
 * itself when both hold the same figures (its `builtAt` is the time they hold since, and its
 * prebuilt bytes and their ETag stay valid); else `built`, where each entry whose figures equal
 * `previous`' entry of that goods is replaced by that entry (the same object, with the time its
 * figures were found and what was serialized of it). The entries are compared a slice per turn
 * of the event loop: the whole market compared at once (tens of thousands of entries, deeply)
 * stalled it.
 */
export async function keepUnchangedEntries(
  previous: PriceSnapshot,
  built: BuiltSnapshot,
): Promise<PriceSnapshot> {
  let differs =
    previous.catalog !== built.catalog ||
    previous.nextCooldownEnd?.getTime() !== built.nextCooldownEnd?.getTime() ||
    previous.entries.size !== built.entries.size ||
    !isDeepStrictEqual(previous.liquidity, built.liquidity);
  const theirs = previous.entries.entries();
  let compared = 0;
  for (const [goodsId, entry] of built.entries) {
    const other = theirs.next().value;
    // Both are in goods id order: the same goods in the same places, with the same figures.
    const inPlace = other !== undefined && other[0] === goodsId;
    if (!inPlace) differs = true;
    const held = inPlace ? other[1] : previous.entries.get(goodsId);
    // Setting a key the map holds keeps its place.
    if (held && sameEntry(held, entry)) built.entries.set(goodsId, held);
    else differs = true;
    if (++compared % COMPARED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return differs ? built : previous;
}

/**
 * Listings a snapshot build reads at a time (about) on the embedded database: each chunk's
 * queries keep to a range of goods ids, found by walking the listings' goods index, and the event
 * loop runs other work between chunks. The embedded database executes in this thread: the whole
 * market in one set of statements stalled it for 1.1-3.2 s. A PostgreSQL server runs the
 * statements elsewhere, so the server gives it larger chunks (fewer round trips).
 */
export const EMBEDDED_LISTINGS_PER_CHUNK = 500;

/** Above every goods id: the last chunk reaches it, for goods with buy orders alone. */
const LAST_GOODS_ID = 2 ** 31 - 1;

/** A snapshot just built, not yet published: its entries are its own, a plain map in id order. */
export type BuiltSnapshot = PriceSnapshot & { entries: Map<number, PriceEntry> };

/** Builds a snapshot of the whole market now: plain data, nothing serialized yet. */
export async function buildSnapshot(
  ctx: DomainContext,
  listingsPerChunk = EMBEDDED_LISTINGS_PER_CHUNK,
): Promise<BuiltSnapshot> {
  const builtAt = ctx.clock.now();
  const catalog = await marketCatalog(ctx);
  const [liquidity, cooldown] = await Promise.all([readLiquidityRanks(ctx), nextCooldownEnd(ctx, builtAt)]);
  const entries = new Map<number, PriceEntry>();
  for (let from = 0; from < LAST_GOODS_ID;) {
    await new Promise((resolve) => setImmediate(resolve));
    const to = await chunkEnd(ctx, from, listingsPerChunk);
    const goodsRange = { from, to };
    const figures = await computeMarketFigures(ctx, catalog, { now: builtAt, goodsRange });
    for (const goodsId of [...figures.keys()].sort((a, b) => a - b)) {
      const goods = catalog.byId.get(goodsId);
      if (goods)
        entries.set(
          goodsId,
          toPriceEntry(goods, figures.get(goodsId)!, liquidity.get(goodsId) ?? 0, builtAt),
        );
    }
    from = to + 1;
  }
  return { builtAt, entries, catalog, liquidity, nextCooldownEnd: cooldown };
}

/** The last goods id of a chunk starting at `from`: about `listings` listings on sale on. */
async function chunkEnd(ctx: DomainContext, from: number, listings: number): Promise<number> {
  const boundary = await ctx.db
    .selectFrom("listings")
    .select("goods_id")
    .where("state", "=", sql.lit("ON_SALE"))
    .where("goods_id", ">=", from)
    .orderBy("goods_id")
    .offset(listings)
    .limit(1)
    .executeTakeFirst();
  return boundary?.goods_id ?? LAST_GOODS_ID;
}
