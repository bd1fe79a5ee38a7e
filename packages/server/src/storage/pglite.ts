import { mkdir, readFile } from "node:fs/promises";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  Kysely,
  PGliteDialect,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import type { Database } from "./schema.ts";
import { INT8_OID, NUMERIC_OID, parseInt8, parseNumeric } from "./type-parsers.ts";
import type { DatabaseHandle } from "./database-handle.ts";
import { lockDataDir } from "./data-dir-lock.ts";

/**
 * PostgreSQL's own page cache inside the embedded database's WebAssembly memory, which never
 * shrinks: PGlite's default (128 MB) fills as the market is read and stays resident beside the
 * operating system's cache of the same files. A quarter of it keeps the server's resident size
 * within its goal at no cost in CPU measured by a start, a demo build or the simulator
 * (docs/design/performance.md#a-quiet-server-and-its-memory).
 */
const SHARED_BUFFERS = "32MB";

/**
 * The embedded database: PGlite in `dataDir`, or in memory when no directory is given; started
 * from `image` (a dumped data directory) when one is given, which skips making a new cluster.
 */
export async function openPGliteDatabase(dataDir: string | undefined, image?: Blob): Promise<DatabaseHandle> {
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(image ? { loadDataDir: image } : {}),
      ...(await pgliteArtifacts()),
      parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseNumeric },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  const db = new Kysely<Database>({
    dialect: new PGliteDialect({ pglite }),
    plugins: [new TurnAfterEachQuery()],
  });
  return {
    db,
    driver: "pglite",
    description: dataDir ? `PGlite in ${dataDir}` : "PGlite in memory",
    // Kysely's PGlite driver closes the PGlite instance it was given, but only once a query has
    // started the driver: a handle closed before any query closes the instance itself. The
    // instance is closed even when Kysely's teardown fails: an open one keeps PostgreSQL's own
    // timers (set from inside the WebAssembly module, referenced) and so the process alive.
    close: async () => {
      try {
        await db.destroy();
      } finally {
        try {
          if (!pglite.closed) await pglite.close();
        } finally {
          await unlock();
        }
      }
    },
  };
}

type WasmModule = NonNullable<PGliteOptions["pgliteWasmModule"]>;
/** The runtime's WebAssembly compiler (the project's `lib` has no WebAssembly types of its own). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

/** PGlite's WebAssembly modules, compiled, and its file bundle, read: once per process. */
let artifacts:
  Promise<{ pgliteWasmModule: WasmModule; initdbWasmModule: WasmModule; fsBundle: Blob }> | undefined;

/**
 * Left to itself, PGlite reads and compiles its two WebAssembly modules and reads its file bundle
 * for every instance; a process that opens many databases (a test file, the demo's worlds) paid
 * that each time. The first instance's compiled modules serve every later one.
 */
function pgliteArtifacts(): NonNullable<typeof artifacts> {
  artifacts ??= (async () => {
    const at = (file: string) => new URL(file, import.meta.resolve("@electric-sql/pglite"));
    const [pglite, initdb, bundle] = await Promise.all(
      ["./pglite.wasm", "./initdb.wasm", "./pglite.data"].map((file) => readFile(at(file))),
    );
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      wasm.compile(pglite!),
      wasm.compile(initdb!),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle!]) };
  })();
  artifacts.catch(() => (artifacts = undefined));
  return artifacts;
}

/**
 * PGlite runs each query on the calling thread, and a query's answer resolves a promise without a
 * turn of the event loop: a job or a request that awaits twenty queries in a row held the loop for
 * all twenty (the jobs' round every 5 s: 100-600 ms in which `/healthz` could not be answered).
 * After each query's answer the caller now waits for the loop's next turn, so that I/O waiting
 * since is served between two queries (docs/design/performance.md#no-stall-at-start-or-during-a-rebuild). A turn costs a few
 * microseconds; PostgreSQL's driver answers on a socket's event and needs no such turn.
 */
class TurnAfterEachQuery implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await nextTurn();
    return args.result;
  }
}
