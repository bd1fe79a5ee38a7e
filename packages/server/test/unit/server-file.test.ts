import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { removeServerFile, runningServer, SERVER_FILE, writeServerFile } from "../../src/server-file.ts";

describe("the data dir's server file", () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-server-file-"));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test("a running server is found by its data dir, and its own clean stop removes the file", async () => {
    await writeServerFile(join(dataDir, "fresh"), "http://127.0.0.1:18383");
    const found = await runningServer(join(dataDir, "fresh"));
    assert.equal(found?.url, "http://127.0.0.1:18383");
    assert.equal(found?.pid, process.pid);
    await removeServerFile(join(dataDir, "fresh"));
    assert.equal(existsSync(join(dataDir, "fresh", SERVER_FILE)), false);
  });

  test("a file left by a process that is gone, or cut short, is ignored and not removed by another", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const path = join(dataDir, SERVER_FILE);
    await writeFile(
      path,
      JSON.stringify({ url: "http://127.0.0.1:1", pid: gone, started_at: "2026-01-01T00:00:00Z" }),
    );
    assert.equal(await runningServer(dataDir), undefined);
    await removeServerFile(dataDir);
    assert.ok(existsSync(path), "only the process that wrote it removes it");
    await writeFile(path, '{"url": "http://127.0.0.1:1", "pi');
    assert.equal(await runningServer(dataDir), undefined);
  });

  test("no file, no server", async () => {
    assert.equal(await runningServer(join(dataDir, "nothing-here")), undefined);
  });
});
