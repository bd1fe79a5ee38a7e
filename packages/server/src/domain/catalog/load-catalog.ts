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

const BATCH_SIZE = 5000;
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
    // Into an empty table (the first start), the secondary indexes are built once over the loaded
    // rows instead of row by row (the tags' GIN index most of all); the primary and unique keys stay.
    const indexes = state ? [] : await dropSecondaryIndexes(tx);
    for (let start = 0; start < goods.length; start += BATCH_SIZE) {
      await upsertGoods(tx, goods.slice(start, start + BATCH_SIZE));
    }
    for (const definition of indexes) await sql.raw(definition).execute(tx.db);
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

/** Drops the indexes of `goods` that back no constraint, and answers how to create them again. */
async function dropSecondaryIndexes(ctx: DomainContext): Promise<string[]> {
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i
    WHERE i.indrelid = 'goods'::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    ORDER BY 1
  `.execute(ctx.db);
  for (const row of rows) await sql`DROP INDEX ${sql.raw(row.name)}`.execute(ctx.db);
  return rows.map((row) => row.definition);
}

/**
 * Upserts a batch with one `INSERT ... SELECT FROM jsonb_to_recordset`: the rows travel as one JSON
 * parameter, so the statement's text and its planning stay the same size whatever the batch.
 */
async function upsertGoods(ctx: DomainContext, batch: CatalogGoods[]): Promise<void> {
  const rows = batch.map((goods) => ({
    goods_id: goods.goodsId,
    market_hash_name: goods.marketHashName,
    name: goods.name,
    short_name: goods.shortName,
    type: goods.type,
    quality: goods.quality,
    exterior: goods.exterior,
    tags: goods.tags.map((tag) => ({
      id: tag.id,
      category: tag.category,
      internal_name: tag.internalName,
      localized_name: tag.localizedName,
    })),
    paintwear_min: goods.paintwearMin,
    paintwear_max: goods.paintwearMax,
    paint_index: goods.paintIndex,
    icon_url: goods.iconUrl,
    is_standard: goods.isStandard,
    source_id: goods.sourceId,
    rarity_color: goods.rarityColor,
    game_index: goods.gameIndex,
  }));
  const columns = GOODS_COLUMNS.map(([name]) => name).join(", ");
  const types = GOODS_COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ");
  const updates = GOODS_COLUMNS.filter(([name]) => name !== "goods_id")
    .map(([name]) => `${name} = excluded.${name}`)
    .join(", ");
  await sql`
    INSERT INTO goods (${sql.raw(columns)})
    SELECT ${sql.raw(columns)} FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${sql.raw(types)})
    ON CONFLICT (goods_id) DO UPDATE SET ${sql.raw(updates)}
  `.execute(ctx.db);
}

const GOODS_COLUMNS = [
  ["goods_id", "integer"],
  ["market_hash_name", "text"],
  ["name", "text"],
  ["short_name", "text"],
  ["type", "text"],
  ["quality", "text"],
  ["exterior", "text"],
  ["tags", "jsonb"],
  ["paintwear_min", "numeric"],
  ["paintwear_max", "numeric"],
  ["paint_index", "integer"],
  ["icon_url", "text"],
  ["is_standard", "boolean"],
  ["source_id", "integer"],
  ["rarity_color", "text"],
  ["game_index", "integer"],
] as const;
