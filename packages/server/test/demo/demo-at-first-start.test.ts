import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { spawnSkinmarket } from "../support/skinmarket-process.ts";

interface LogRecord {
  pid: number;
  msg: string;
  [field: string]: unknown;
}

/** `skinmarket serve` on a new embedded database with the demo market wanted, as `npm start` runs it. */
class FirstStart {
  readonly dataDir: string;
  readonly records: LogRecord[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  readonly #server: ChildProcess;
  #stdout = "";
  #waiting: Array<() => void> = [];

  constructor(dataDir: string) {
    this.dataDir = dataDir;
    this.#server = spawnSkinmarket(["serve", "--port", "0", "--data-dir", dataDir, "--log-level", "info"], {
      DEMO: "auto",
    });
    this.#server.stdout?.on("data", (chunk: Buffer) => {
      this.#stdout += chunk;
      const lines = this.#stdout.split("\n");
      this.#stdout = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("{")) this.records.push(JSON.parse(line) as LogRecord);
      this.#wake();
    });
    this.#server.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      this.#server.once("close", (code) => {
        resolve(code);
        this.#wake();
      }),
    );
  }

  get pid(): number {
    return this.#server.pid!;
  }

  /** The first record with this message; fails if the server exits first. */
  async record(msg: string): Promise<LogRecord> {
    for (;;) {
      const found = this.records.find((record) => record.msg === msg);
      if (found) return found;
      if (this.#server.exitCode !== null)
        assert.fail(`the server exited (${this.#server.exitCode}) before logging "${msg}":\n${this.stderr}`);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  kill(signal: NodeJS.Signals): void {
    if (this.#server.exitCode === null) this.#server.kill(signal);
  }

  #wake(): void {
    for (const resume of this.#waiting.splice(0)) resume();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const lockOwner = async (dataDir: string) =>
  Number((await readFile(join(dataDir, "pglite", "skinmarket.lock"), "utf8")).trim());

/** The first start's demo market is built by a process of its own (docs/design/performance.md#a-demo-of-ten-million-listings). */
describeOrSkip("demo market: the first start", { skip: EMBEDDED_ONLY }, () => {
  const started: FirstStart[] = [];
  const firstStart = async () => {
    const start = new FirstStart(await mkdtemp(join(tmpdir(), "skinmarket-first-start-")));
    started.push(start);
    return start;
  };

  after(async () => {
    for (const start of started) {
      start.kill("SIGKILL");
      await start.exited;
      await rm(start.dataDir, { recursive: true, force: true });
    }
  });

  test("builds in another process, which holds the data directory until it exits; then the server serves that market", async () => {
    const start = await firstStart();
    const building = await start.record("building the demo market");
    const builder = building.pid;
    assert.notEqual(builder, start.pid, "the build runs in a process of its own");
    assert.equal(await lockOwner(start.dataDir), builder, "the build holds the data directory's lock");
    const built = await start.record("demo market built");
    assert.equal(built.pid, builder);

    const serving = await start.record("skinmarket is serving");
    assert.equal(serving.pid, start.pid);
    assert.equal(isRunning(builder), false, "the build's process has exited before the server serves");
    assert.equal(await lockOwner(start.dataDir), start.pid, "the server holds the lock once it serves");
    const opened = start.records
      .filter((record) => record.msg === "database open")
      .map((record) => record.pid);
    assert.deepEqual(opened, [builder, start.pid], "the server opens the database after the build closed it");
    assert.equal(start.stderr.split("Demo market (seed 1) built").length - 1, 1, "the summary is shown once");

    const credentials = JSON.parse(await readFile(join(start.dataDir, "demo-traders.json"), "utf8")) as {
      traders: Array<{ token: string }>;
    };
    const items = await fetch(`${serving.url as string}/api/market/items?game=cs2`, {
      headers: { authorization: `Bearer ${credentials.traders[0]!.token}` },
    });
    assert.equal(items.status, 200, "a demo trader's token from the build works on the server");
    assert.equal(((await items.json()) as { info: unknown[] }).info.length, built.goods);
  });

  test("a SIGTERM during the build stops the build's process too, and the start", async () => {
    const start = await firstStart();
    const builder = (await start.record("building the demo market")).pid;
    start.kill("SIGTERM");
    assert.equal(await start.exited, 1);
    assert.match(
      start.stderr,
      new RegExp(`stopped by SIGTERM during the demo market's build \\(process ${builder}\\)`),
    );
    assert.equal(isRunning(builder), false);
    assert.ok(!start.records.some((record) => record.pid === start.pid && record.msg === "database open"));
  });

  test("a build that fails stops the start, saying what failed", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "skinmarket-first-start-"));
    await writeFile(join(dataDir, "secret-key"), "not a key\n");
    const start = new FirstStart(dataDir);
    started.push(start);
    assert.equal(await start.exited, 1);
    assert.match(
      start.stderr,
      /skinmarket: the demo market's build \(process \d+\) failed: .*secret-key does not hold 64 hexadecimal characters/,
    );
    const failed = start.records.find((record) => record.msg === "the demo market's build failed");
    assert.ok(failed && failed.pid !== start.pid, "the build's process logs its error");
  });
});
