import { open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * The embedded database belongs to one process: two servers (or a server and `skinmarket
 * migrate`) on the same data directory would each keep their own copy in memory and overwrite
 * each other's files. A lock file holding the owner's pid keeps the second one out; a lock left by
 * a process that no longer runs is taken over.
 */
export class DataDirLockedError extends Error {}

export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, "skinmarket.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `${dataDir} is in use by process ${owner}: stop it first, or give a second server its own data dir (--data-dir or DATA_DIR) and port (the embedded database serves one process at a time)`,
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
