import type { DatabaseHandle } from "./database-handle.ts";

export type { Database } from "./schema.ts";
export type { DatabaseHandle } from "./database-handle.ts";

export type DatabaseLocation =
  | { kind: "postgres"; url: string; onConnectionError?: (error: Error) => void }
  | {
      kind: "pglite";
      dataDir?: string;
      /** A data directory dumped by PGlite's `dumpDataDir` to start from, instead of a new cluster. */
      image?: Blob;
    };

/** The only place that chooses the driver (docs/design/architecture.md#test-databases-start-from-templates-made-once-per-run). */
export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  if (location.kind === "postgres") {
    const { openPostgresDatabase } = await import("./postgres.ts");
    return openPostgresDatabase({
      url: location.url,
      ...(location.onConnectionError ? { onConnectionError: location.onConnectionError } : {}),
    });
  }
  const { openPGliteDatabase } = await import("./pglite.ts");
  return openPGliteDatabase(location.dataDir, location.image);
}
