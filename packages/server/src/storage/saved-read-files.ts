import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { SavedReads } from "../domain/saved-reads.ts";

/**
 * Saved reads as files in `folder`, one per kind: `<kind>.<key>.v8`, the value in V8's
 * serialization (which keeps objects shared within it shared). A file is written under a
 * temporary name and renamed, so a reader never sees half of one; a save removes the kind's other
 * files, which no key reaches any more. A file that cannot be read or decoded is a miss, and a
 * save that fails (a read-only folder) is skipped: the caller reads from the database instead.
 */
export function savedReadFiles(folder: string): SavedReads {
  const fileOf = (kind: string, key: string) => join(folder, `${kind}.${key}.v8`);
  return {
    async load(kind, key) {
      const bytes = await readFile(fileOf(kind, key)).catch(() => undefined);
      if (!bytes) return undefined;
      try {
        return deserialize(bytes);
      } catch {
        return undefined;
      }
    },
    async save(kind, key, value) {
      const path = fileOf(kind, key);
      const written = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await mkdir(folder, { recursive: true });
        await writeFile(written, serialize(value));
        await rename(written, path);
        for (const name of await readdir(folder)) {
          if (name.startsWith(`${kind}.`) && name.endsWith(".v8") && join(folder, name) !== path)
            await rm(join(folder, name), { force: true });
        }
      } catch {
        await rm(written, { force: true }).catch(() => undefined);
      }
    },
  };
}
