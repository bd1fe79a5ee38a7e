import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { DataDirLockedError, lockDataDir } from "../../src/storage/data-dir-lock.ts";

describe("the embedded database's data directory", () => {
  test("serves one process at a time; a stale lock is taken over; unlocking frees it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skinmarket-lock-"));
    try {
      // A lock held by another live process (the test runner's parent) keeps us out.
      await writeFile(join(dir, "skinmarket.lock"), `${process.ppid}\n`);
      await assert.rejects(lockDataDir(dir), DataDirLockedError);
      // A lock left by a process that no longer runs is taken over.
      await writeFile(join(dir, "skinmarket.lock"), "999999999\n");
      const unlock = await lockDataDir(dir);
      await unlock();
      const again = await lockDataDir(dir);
      await again();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
