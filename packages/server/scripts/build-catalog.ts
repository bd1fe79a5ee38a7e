import { readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { CS2_ITEMS, CS2Economy, type CS2ItemTranslationMap } from "@ianlucas/cs2-lib";
import {
  buildCatalog,
  type CatalogBuild,
  type CatalogMappings,
  type CatalogSource,
} from "./catalog-builder.ts";

/**
 * `npm run catalog:build`: turns @ianlucas/cs2-lib into the committed catalog files
 * (packages/server/catalog/README.md). The transformation itself is catalog-builder.ts.
 */

export const CATALOG_DIR = resolve(import.meta.dirname, "../catalog");
const CATALOG_FILE = "catalog.json.gz";
const GOODS_IDS_FILE = "goods-ids.tsv";
const TAG_IDS_FILE = "tag-ids.tsv";

const USAGE = `Usage: npm run catalog:build [-- --check]

Rebuilds packages/server/catalog/ from @ianlucas/cs2-lib: catalog.json.gz (the goods), and the
append-only id mappings goods-ids.tsv and tag-ids.tsv (known names keep their ids, new names get
the next ones). Files whose content did not change are left untouched.

Options:
  --check   write nothing; exit 1 if the committed files differ from what a rebuild would write
  --help    show this text
`;

export interface CommittedCatalog extends CatalogMappings {
  /** The uncompressed catalog file, or null when there is none yet. */
  catalogJson: string | null;
}

/** cs2-lib's items with the English and Simplified Chinese names. */
export async function loadCs2Lib(): Promise<CatalogSource> {
  const entry = import.meta.resolve("@ianlucas/cs2-lib");
  // The package's `translations` export loads all 29 languages (~190 MB); import the two we use.
  const [english, chinese, packageJson] = await Promise.all([
    importTranslation(new URL("translations/english.mjs", entry), "english"),
    importTranslation(new URL("translations/schinese.mjs", entry), "schinese"),
    readFile(new URL("../package.json", entry), "utf8"),
  ]);
  const { version } = JSON.parse(packageJson) as { version: string };
  return {
    name: `@ianlucas/cs2-lib@${version}`,
    items: CS2_ITEMS,
    english,
    chinese,
    iconBaseUrl: CS2Economy.baseUrl,
  };
}

async function importTranslation(url: URL, exportName: string): Promise<CS2ItemTranslationMap> {
  const module = (await import(url.href)) as Record<string, CS2ItemTranslationMap | undefined>;
  const translation = module[exportName];
  if (translation === undefined) throw new Error(`${url.pathname} does not export ${exportName}`);
  return translation;
}

export async function readCommittedCatalog(dir: string = CATALOG_DIR): Promise<CommittedCatalog> {
  const gzipped = await readOptional(join(dir, CATALOG_FILE));
  return {
    goodsIdsTsv: (await readOptional(join(dir, GOODS_IDS_FILE)))?.toString("utf8") ?? "",
    tagIdsTsv: (await readOptional(join(dir, TAG_IDS_FILE)))?.toString("utf8") ?? "",
    catalogJson: gzipped === null ? null : gunzipSync(gzipped).toString("utf8"),
  };
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The files a rebuild would change. The catalog is compared uncompressed: gzip bytes may differ
 * between zlib builds for the same content.
 */
export function staleFiles(build: CatalogBuild, committed: CommittedCatalog): string[] {
  const stale: string[] = [];
  if (build.catalogJson !== committed.catalogJson) stale.push(CATALOG_FILE);
  if (build.goodsIdsTsv !== committed.goodsIdsTsv) stale.push(GOODS_IDS_FILE);
  if (build.tagIdsTsv !== committed.tagIdsTsv) stale.push(TAG_IDS_FILE);
  return stale;
}

async function writeCatalogFiles(build: CatalogBuild, stale: string[], dir: string): Promise<void> {
  const contents: Record<string, Buffer> = {
    [CATALOG_FILE]: gzipSync(Buffer.from(build.catalogJson, "utf8"), { level: 9 }),
    [GOODS_IDS_FILE]: Buffer.from(build.goodsIdsTsv, "utf8"),
    [TAG_IDS_FILE]: Buffer.from(build.tagIdsTsv, "utf8"),
  };
  for (const file of stale) {
    const bytes = contents[file];
    if (bytes === undefined) continue;
    await writeFile(join(dir, file), bytes);
    console.log(`wrote ${relative(process.cwd(), join(dir, file))} (${formatBytes(bytes.length)})`);
  }
}

function printSummary(build: CatalogBuild): void {
  const { report } = build;
  console.log("goods by type:");
  for (const [type, count] of Object.entries(report.goodsByType)) console.log(`  ${type.padEnd(14)}${count}`);
  console.log(`  ${"total".padEnd(14)}${build.goods.length}`);
  console.log(`new goods ids: ${report.newGoods}, new tag ids: ${report.newTags}`);
  console.log(`mapped names cs2-lib no longer yields (ids kept): ${report.absentGoods}`);
  const phases = report.duplicates.filter((duplicate) => duplicate.kind === "phase");
  console.log(`Doppler-like finishes folded into one goods per name: ${phases.length}`);
  for (const duplicate of report.duplicates.filter((entry) => entry.kind === "duplicate")) {
    console.log(
      `duplicate name ${JSON.stringify(duplicate.name)}: kept cs2-lib ${duplicate.keptSourceId}, ` +
        `left out ${duplicate.droppedSourceIds.join(", ")}`,
    );
  }
  console.log("cs2-lib items left out:");
  for (const [reason, count] of Object.entries(report.skipped))
    console.log(`  ${String(count).padStart(5)}  ${reason}`);
  for (const warning of report.warnings) console.log(`warning: ${warning}`);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

async function main(args: string[]): Promise<number> {
  let options;
  try {
    options = parseArgs({ args, options: { check: { type: "boolean" }, help: { type: "boolean" } } }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help === true) {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  const source = await loadCs2Lib();
  console.log(
    `loaded ${source.name}: ${source.items.length} items (${Math.round(performance.now() - started)} ms)`,
  );
  const committed = await readCommittedCatalog();
  const build = buildCatalog(source, committed);
  console.log(`built ${build.goods.length} goods (${Math.round(performance.now() - started)} ms)`);
  printSummary(build);
  const stale = staleFiles(build, committed);
  if (options.check === true) {
    if (stale.length === 0) {
      console.log("catalog files are up to date");
      return 0;
    }
    console.error(`out of date: ${stale.join(", ")}; run npm run catalog:build and commit the result`);
    return 1;
  }
  if (stale.length === 0) console.log("catalog files are up to date; nothing written");
  await writeCatalogFiles(build, stale, CATALOG_DIR);
  return 0;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
