import { spawn } from "node:child_process";
import { glob } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * `npm test` and `npm run test:pg`: the test files matching the patterns given, run by
 * `node --test` in a few long-lived processes instead of one process per file
 * (docs/design/architecture.md#what-ci-runs-where). The files are dealt round in order to
 * `TEST_SHARDS` shards (default 3), each one process with `--test-isolation=none`, so the server's
 * modules, the embedded database's compiled code and the run's templates are loaded once per shard.
 * The few files that must have a process of their own (ISOLATED) run as one more group, one
 * process per file. Every group's output is shown prefixed with its name, then the totals; the
 * run fails when any group fails.
 */
const SETUP = "--test-global-setup=packages/server/test/support/global-setup.ts";
/** Node's compile cache, as the global setup gives the processes the suites start. */
const COMPILE_CACHE = join(tmpdir(), "node-compile-cache");

/** Files that change the process in ways a suite cannot undo, so run in a process of their own. */
const ISOLATED: string[] = [];

const patterns = process.argv.slice(2);
if (patterns.length === 0) {
  process.stderr.write("run-tests: give the test files' patterns\n");
  process.exit(2);
}
const files = new Set<string>();
for (const pattern of patterns) for await (const file of glob(pattern)) files.add(file);
const ordered = [...files].sort();
const isolated = ordered.filter((file) => ISOLATED.includes(file));
const shared = ordered.filter((file) => !ISOLATED.includes(file));
const shardCount = Math.max(1, Math.min(Number(process.env.TEST_SHARDS ?? 3), shared.length));

const groups: { name: string; args: string[] }[] = [];
for (let shard = 0; shard < shardCount; shard++) {
  const own = shared.filter((_, index) => index % shardCount === shard);
  if (own.length > 0)
    groups.push({ name: `shard ${shard + 1}/${shardCount}`, args: ["--test-isolation=none", ...own] });
}
if (isolated.length > 0) groups.push({ name: "isolated", args: ["--test-concurrency=1", ...isolated] });

const totals = new Map<string, number>();
const results = await Promise.all(groups.map((group) => runGroup(group.name, group.args)));
const failed = groups.filter((_, index) => results[index] !== 0).map((group) => group.name);
const summary = ["tests", "pass", "fail", "cancelled", "skipped", "todo"]
  .map((key) => `${key} ${totals.get(key) ?? 0}`)
  .join(", ");
process.stdout.write(`run-tests: ${ordered.length} files in ${groups.length} groups: ${summary}\n`);
if (failed.length > 0) {
  process.stdout.write(`run-tests: failed: ${failed.join(", ")}\n`);
  process.exitCode = 1;
}

/** Runs one `node --test` process, shows its lines under its name and adds its totals. */
async function runGroup(name: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ["--test", SETUP, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? COMPILE_CACHE },
  });
  const show = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      const lines = createInterface({ input: stream });
      lines.on("line", (line) => {
        const total = /^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
        if (total) totals.set(total[1]!, (totals.get(total[1]!) ?? 0) + Number(total[2]));
        out.write(`[${name}] ${line}\n`);
      });
      lines.on("close", resolve);
    });
  const exited = new Promise<number>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
  await Promise.all([show(child.stdout, process.stdout), show(child.stderr, process.stderr)]);
  return exited;
}
