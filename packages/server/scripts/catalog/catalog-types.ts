import type { CS2Item, CS2ItemTranslationMap } from "@ianlucas/cs2-lib";
import type { CatalogGoods, GoodsType } from "../../src/domain/catalog/catalog-file.ts";

/** What goes into a catalog build and what comes out of it; catalog-builder.ts re-exports these. */

export interface CatalogSource {
  /** Recorded in the file, e.g. `@ianlucas/cs2-lib@7.33.1`. */
  name: string;
  items: readonly CS2Item[];
  english: CS2ItemTranslationMap;
  chinese: CS2ItemTranslationMap;
  iconBaseUrl: string;
}

export interface CatalogMappings {
  /** `goods_id<TAB>market_hash_name` lines sorted by id; empty for a first build. */
  goodsIdsTsv: string;
  /** `tag_id<TAB>category<TAB>internal_name` lines sorted by id. */
  tagIdsTsv: string;
}

export interface CatalogBuild extends CatalogMappings {
  /** Ordered by goods id. */
  goods: CatalogGoods[];
  /** The uncompressed catalog file: compact JSON with one row per line, so diffs stay readable. */
  catalogJson: string;
  report: CatalogBuildReport;
}

export interface CatalogBuildReport {
  goodsByType: Record<GoodsType, number>;
  newGoods: number;
  newTags: number;
  /** Names in the mapping that this cs2-lib no longer yields; their ids stay reserved. */
  absentGoods: number;
  /** cs2-lib items sharing one market hash name; one of each is kept. */
  duplicates: DuplicateName[];
  /** cs2-lib items left out, by reason. */
  skipped: Record<string, number>;
  /** Data oddities worth a look (missing translations, unexpected prefixes ...). */
  warnings: string[];
}

export interface DuplicateName {
  name: string;
  keptSourceId: number;
  droppedSourceIds: number[];
  /** `phase`: Doppler-like finishes, one goods whose phases are variants (paint indexes). */
  kind: "phase" | "duplicate";
}
