import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Redis } from "ioredis";
import { Kysely, PGliteDialect } from "kysely";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import type { Database } from "../../src/storage/schema.ts";
import { CHROMIUM, noDebianPythonPackages } from "./describe-or-skip.ts";
import { INT8_OID, NUMERIC_OID, parseInt8, parseNumeric } from "../../src/storage/type-parsers.ts";
import { marketCatalog } from "../../src/domain/market/market-goods.ts";
import { savedReadFiles } from "../../src/storage/saved-read-files.ts";
import { silentLog, testPlatform } from "./test-context.ts";
import { prepared } from "./test-database.ts";
import { TEST_TEMPLATES_VARIABLE, type TestTemplates } from "./test-templates.ts";

/**
 * `node --test --test-global-setup=...` (the `test` and `test:pg` scripts): before any test file
 * runs, one migrated database and one with the catalog are made, and every test file starts its
 * databases from them instead of migrating and loading 37,000 goods again (openTestDatabase).
 * Made new for every run and removed at its end, so no run depends on another.
 */
let folder: string | undefined;
let serverTemplates: { url: string; names: string[] } | undefined;

export async function globalSetup(): Promise<void> {
  // The test processes load the server's modules, and many suites start more processes: Node's
  // compile cache (as `skinmarket` uses it) spares each the stripping and compiling that an
  // earlier one did (docs/design/stack.md#startup-compile-cache).
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "node-compile-cache");
  if (process.env.CI === "true") await requireServices();
  const serverUrl = process.env.TEST_DATABASE_URL;
  folder = await mkdtemp(join(tmpdir(), "skinmarket-test-templates-"));
  const savedReads = join(folder, "saved-reads");
  const made: TestTemplates = serverUrl
    ? { postgres: await postgresTemplates(serverUrl, savedReads), savedReads }
    : { ...(await pgliteTemplates(savedReads)), savedReads };
  process.env[TEST_TEMPLATES_VARIABLE] = JSON.stringify(made);
}

export async function globalTeardown(): Promise<void> {
  if (folder) await rm(folder, { recursive: true, force: true });
  if (serverTemplates) {
    for (const name of serverTemplates.names)
      await runOnServer(serverTemplates.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * Under `CI=true` the services a suite would otherwise skip without must be there: Chromium for the
 * website, Debian's python3 with requests and cryptography for the Python bot, Redis for the shared limits (`TEST_REDIS_URL`), and the PostgreSQL server of
 * `TEST_DATABASE_URL` when the run names one (the embedded run leaves it out on purpose: its
 * PostgreSQL-only suites run in the PostgreSQL run). A missing one fails the run here, before any
 * suite could report itself skipped.
 */
async function requireServices(): Promise<void> {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push(`no Chromium at ${CHROMIUM}`);
  const noPython = noDebianPythonPackages();
  if (noPython) missing.push(noPython);
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) missing.push("TEST_REDIS_URL is not set");
  else {
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    await redis
      .connect()
      .then(() => redis.ping())
      .catch((error: Error) => missing.push(`Redis at ${redisUrl} does not answer: ${error.message}`))
      .finally(() => redis.disconnect());
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    await runOnServer(serverUrl, "SELECT 1").catch((error: Error) =>
      missing.push(`PostgreSQL at ${serverUrl} does not answer: ${error.message}`),
    );
  }
  if (missing.length > 0)
    throw new Error(`CI=true and a service the suites need is missing: ${missing.join("; ")}`);
}

/**
 * The PGlite images, and a server's data directory made from the one with the catalog: suites that
 * start `skinmarket serve` for what it does after its first start copy it (`seededDataDir`)
 * instead of migrating and loading the catalog in every process they start.
 */
async function pgliteTemplates(savedReads: string): Promise<TestTemplates> {
  const images = await pgliteImages(savedReads);
  const dataDir = join(folder!, "data-dir");
  await mkdir(dataDir);
  // The server saves its reads in its data directory: a seeded one holds the catalog's already.
  await cp(savedReads, join(dataDir, "saved-reads"), { recursive: true });
  const pglite = await PGlite.create({
    dataDir: join(dataDir, "pglite"),
    loadDataDir: new Blob([await readFile(images.catalog)]),
  });
  await pglite.close();
  return { pglite: images, dataDir };
}

async function pgliteImages(savedReads: string): Promise<{ migrated: string; catalog: string }> {
  const pglite = await PGlite.create({ parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseNumeric } });
  // A checkpoint renames the WAL segments it no longer needs into segments for later writes (up to
  // min_wal_size, 80 MB): in an image they are bytes that every test database would copy and never
  // read. Without recycling, the images hold only the segment the checkpoint is in.
  await pglite.exec("SET wal_recycle = off");
  const handle: DatabaseHandle = {
    db: new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) }),
    driver: "pglite",
    description: "PGlite in memory",
    close: async () => {},
  };
  try {
    const paths = { migrated: join(folder!, "migrated.tar"), catalog: join(folder!, "catalog.tar") };
    await prepared(handle, {});
    await writeFile(paths.migrated, await dumped(pglite));
    await prepared(handle, { catalog: true });
    await writeFile(paths.catalog, await dumped(pglite));
    await saveCatalogRead(handle, savedReads);
    return paths;
  } finally {
    await handle.db.destroy();
  }
}

async function dumped(pglite: PGlite): Promise<Uint8Array> {
  // A checkpoint keeps the segment its redo point is in, often the one before the segment it ends
  // in: after a switch to a new segment, the checkpoint starts and ends there, and the image holds
  // that one segment alone.
  await pglite.query("SELECT pg_switch_wal()");
  await pglite.query("CHECKPOINT");
  return new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer());
}

async function postgresTemplates(
  url: string,
  savedReads: string,
): Promise<{ migrated: string; catalog: string }> {
  const stem = `skinmarket_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  const names = { migrated: `${stem}_migrated`, catalog: `${stem}_catalog` };
  serverTemplates = { url, names: [names.migrated, names.catalog] };
  await runOnServer(url, `CREATE DATABASE ${names.migrated}`);
  const migrated = await openDatabase({ kind: "postgres", url: urlOfDatabase(url, names.migrated) });
  await prepared(migrated, {}).finally(() => migrated.close());
  // A template may be copied only while nobody is connected to it: each handle is closed first.
  await runOnServer(url, `CREATE DATABASE ${names.catalog} TEMPLATE ${names.migrated}`);
  const catalog = await openDatabase({ kind: "postgres", url: urlOfDatabase(url, names.catalog) });
  await prepared(catalog, { catalog: true })
    .then(() => saveCatalogRead(catalog, savedReads))
    .finally(() => catalog.close());
  return names;
}

/** The catalog's goods as the market reads them, saved under the template's catalog load. */
async function saveCatalogRead(handle: DatabaseHandle, folder: string): Promise<void> {
  await marketCatalog({
    db: handle.db,
    clock: { now: () => new Date() },
    actor: { kind: "system" },
    log: silentLog,
    ...testPlatform(),
    savedReads: savedReadFiles(folder),
  });
}
