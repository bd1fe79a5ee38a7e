import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { marketCatalog, type MarketGoods } from "../../src/domain/market/market-goods.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { savedReadFiles } from "../../src/storage/saved-read-files.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";

describe("the market's catalog in memory", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    database = await openTestDatabase({ catalog: true });
    ctx = {
      db: database.db,
      clock: { now: () => new Date() },
      actor: { kind: "system" },
      log: silentLog,
      ...testPlatform(),
    };
  });
  after(() => database.close());

  test("goods that carry the same tag share one object of it, which reads as the goods' row", async () => {
    const catalog = await marketCatalog(ctx);
    const exterior = (goods: MarketGoods | undefined) =>
      goods?.tags.find((tag) => tag.category === "exterior");
    const redline = catalog.byName.get("AK-47 | Redline (Field-Tested)");
    const asiimov = catalog.byName.get("AWP | Asiimov (Field-Tested)");
    assert.ok(exterior(redline));
    assert.equal(exterior(redline), exterior(asiimov), "one object for Field-Tested");

    const objects = new Set<object>();
    const ids = new Set<number>();
    for (const goods of catalog.byId.values()) {
      for (const tag of goods.tags) {
        objects.add(tag);
        ids.add(tag.id);
      }
    }
    assert.equal(objects.size, ids.size, "one object per tag id");

    const row = await database.db
      .selectFrom("goods")
      .select("tags")
      .where("goods_id", "=", redline!.goods_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(redline!.tags, row.tags);
  });
});

describe("the catalog's read saved for the next process", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "skinmarket-saved-reads-"));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  /** A new context on a new copy of the catalog database, saving its reads in `folder`. */
  async function withDatabase<T>(use: (ctx: DomainContext, database: DatabaseHandle) => Promise<T>) {
    const database = await openTestDatabase({ catalog: true });
    try {
      return await use(
        {
          db: database.db,
          clock: { now: () => new Date() },
          actor: { kind: "system" },
          log: silentLog,
          ...testPlatform(),
          savedReads: savedReadFiles(folder),
        },
        database,
      );
    } finally {
      await database.close();
    }
  }
  const savedFiles = async () => (await readdir(folder)).filter((name) => name.endsWith(".v8"));

  test("a copy of the same database finds the goods saved and reads none; they equal the table's", async () => {
    const fromTable = await withDatabase((ctx) => marketCatalog(ctx));
    assert.equal((await savedFiles()).length, 1);
    const fromSaved = await withDatabase(async (ctx, database) => {
      // Goods renamed behind the market's back: a catalog read from the table would show it.
      await sql`UPDATE goods SET name = 'renamed' WHERE goods_id = (SELECT min(goods_id) FROM goods)`.execute(
        database.db,
      );
      return marketCatalog(ctx);
    });
    assert.ok(fromSaved.byId.size > 20_000);
    assert.deepEqual(fromSaved, fromTable);
    const exterior = (name: string) =>
      fromSaved.byName.get(name)?.tags.find((tag) => tag.category === "exterior");
    assert.equal(
      exterior("AK-47 | Redline (Field-Tested)"),
      exterior("AWP | Asiimov (Field-Tested)"),
      "tags stay shared",
    );
  });

  test("a catalog loaded again is read from the table and replaces the saved read", async () => {
    const before = await savedFiles();
    await withDatabase(async (ctx) => {
      await marketCatalog(ctx);
      await sql`UPDATE catalog_state SET checksum = 'before'`.execute(ctx.db);
      await sql`UPDATE goods SET name = 'renamed' WHERE market_hash_name = 'AK-47 | Redline (Field-Tested)'`.execute(
        ctx.db,
      );
      const loaded = await loadCatalog(ctx);
      assert.ok(loaded.ok && loaded.value.loaded);
      // As the next process would read it (this one keeps its read in memory per database handle).
      const catalog = await marketCatalog({ ...ctx, db: ctx.db.withoutPlugins() });
      assert.notEqual(catalog.byName.get("AK-47 | Redline (Field-Tested)")?.name, "renamed");
    });
    const after = await savedFiles();
    assert.equal(after.length, 1);
    assert.notDeepEqual(after, before, "the new load's read replaced the old one");
  });

  test("a saved file that cannot be decoded is read from the table again", async () => {
    for (const name of await savedFiles()) await writeFile(join(folder, name), "not a serialized value");
    const catalog = await withDatabase((ctx) => marketCatalog(ctx));
    assert.ok(catalog.byId.size > 20_000);
  });
});
