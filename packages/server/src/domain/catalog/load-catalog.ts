import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { CATALOG_FILE_PATH, readCatalogFile, type CatalogGoods } from "./catalog-file.ts";
import { followKitIds } from "./follow-kit-ids.ts";

export interface CatalogLoadReport {
  /** False when the database already holds this exact catalog file. */
  loaded: boolean;
  goodsCount: number;
  checksum: string;
  milliseconds: number;
}

const BATCH_SIZE = 1000;
/** Any constant shared by every instance: only one of them loads the catalog at a time. */
const CATALOG_LOCK_KEY = 730_001;

/**
 * Loads the committed catalog file into `goods` when the database does not hold this version
 * yet (first start, or after `npm run catalog:build`). Goods are upserted by their stable id and
 * never deleted, so records that point at a goods id stay valid across catalog versions.
 */
export async function loadCatalog(
  ctx: DomainContext,
  path = CATALOG_FILE_PATH,
): Promise<Result<CatalogLoadReport>> {
  const started = performance.now();
  const bytes = await readFile(path);
  const checksum = createHash("sha256").update(bytes).digest("hex");
  return inTransaction<CatalogLoadReport>(ctx, async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${CATALOG_LOCK_KEY})`.execute(tx.db);
    const state = await tx.db
      .selectFrom("catalog_state")
      .select(["checksum", "goods_count"])
      .executeTakeFirst();
    if (state?.checksum === checksum) {
      noteNoMarketChange(tx);
      return ok({
        loaded: false,
        goodsCount: state.goods_count,
        checksum,
        milliseconds: performance.now() - started,
      });
    }
    // A new catalog names no goods: it is a change to everything, and the market's snapshots are
    // read whole again on it.
    const goods = await readCatalogFile(path);
    for (let start = 0; start < goods.length; start += BATCH_SIZE) {
      await upsertGoods(tx, goods.slice(start, start + BATCH_SIZE));
    }
    await followKitIds(tx);
    const row = { checksum, goods_count: goods.length, loaded_at: tx.clock.now() };
    await tx.db
      .insertInto("catalog_state")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
      .execute();
    ctx.log.info({ goods: goods.length, checksum }, "catalog loaded");
    return ok({
      loaded: true,
      goodsCount: goods.length,
      checksum,
      milliseconds: performance.now() - started,
    });
  });
}

async function upsertGoods(ctx: DomainContext, batch: CatalogGoods[]): Promise<void> {
  await ctx.db
    .insertInto("goods")
    .values(
      batch.map((goods) => ({
        goods_id: goods.goodsId,
        market_hash_name: goods.marketHashName,
        name: goods.name,
        short_name: goods.shortName,
        type: goods.type,
        quality: goods.quality,
        exterior: goods.exterior,
        tags: JSON.stringify(
          goods.tags.map((tag) => ({
            id: tag.id,
            category: tag.category,
            internal_name: tag.internalName,
            localized_name: tag.localizedName,
          })),
        ),
        paintwear_min: goods.paintwearMin,
        paintwear_max: goods.paintwearMax,
        paint_index: goods.paintIndex,
        icon_url: goods.iconUrl,
        is_standard: goods.isStandard,
        source_id: goods.sourceId,
        rarity_color: goods.rarityColor,
        game_index: goods.gameIndex,
      })),
    )
    .onConflict((conflict) =>
      conflict.column("goods_id").doUpdateSet((eb) => ({
        market_hash_name: eb.ref("excluded.market_hash_name"),
        name: eb.ref("excluded.name"),
        short_name: eb.ref("excluded.short_name"),
        type: eb.ref("excluded.type"),
        quality: eb.ref("excluded.quality"),
        exterior: eb.ref("excluded.exterior"),
        tags: eb.ref("excluded.tags"),
        paintwear_min: eb.ref("excluded.paintwear_min"),
        paintwear_max: eb.ref("excluded.paintwear_max"),
        paint_index: eb.ref("excluded.paint_index"),
        icon_url: eb.ref("excluded.icon_url"),
        is_standard: eb.ref("excluded.is_standard"),
        source_id: eb.ref("excluded.source_id"),
        rarity_color: eb.ref("excluded.rarity_color"),
        game_index: eb.ref("excluded.game_index"),
      })),
    )
    .execute();
}
