import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parseReadme, type ReadmeBlock } from "../support/readme-blocks.ts";
import { freePort } from "../support/skinmarket-process.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";

/**
 * The README's shell blocks, run in order as a newcomer runs them: `npm start` on a fresh data dir
 * (the demo market on), then every other block in one shell, so that the variables one block sets
 * reach the next. Each command must exit 0 and print what its `#   ` lines below it show. A block
 * preceded by `<!-- readme-test: skip ... -->` is not run (it needs another database, or is the
 * test command itself); `<!-- readme-test: serve -->` marks the block that starts the server.
 */
const ROOT = join(import.meta.dirname, "../../../..");
/** What a fresh clone has after `npm ci`: the folder the README's commands run in. */
const CLONE_ENTRIES = ["package.json", "node_modules", "packages", "examples", "tsconfig.json"];

describeOrSkip("README", { skip: EMBEDDED_ONLY }, () => {
  let folder: string;
  let port: number;
  let server: ChildProcess | undefined;
  let serverOutput = "";
  let blocks: ReadmeBlock[];

  before(async () => {
    blocks = parseReadme(await readFile(join(ROOT, "README.md"), "utf8"));
    folder = await mkdtemp(join(tmpdir(), "skinmarket-readme-"));
    for (const entry of CLONE_ENTRIES) await symlink(join(ROOT, entry), join(folder, entry));
    port = await freePort();
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  });

  test("marks exactly one block as the one that starts the server", () => {
    assert.equal(blocks.filter((block) => block.mode === "serve").length, 1);
    assert.ok(blocks.filter((block) => block.mode === "run").length >= 4);
  });

  test("npm start serves a fresh data dir with the demo market", async () => {
    const serve = blocks.find((block) => block.mode === "serve")!;
    // `npm ci` has already run for this checkout; the rest of the block is what a newcomer types.
    const command = serve.commands[0]!.text.replace(/^npm ci && /, "");
    assert.equal(command, "npm start");
    server = spawn("bash", ["-c", `exec ${command}`], {
      cwd: folder,
      env: newcomerEnv(port),
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (serverOutput += chunk));
    server.stderr!.on("data", (chunk: Buffer) => (serverOutput += chunk));
    await waitForServing(server, () => serverOutput);
    assert.match(serverOutput, /Demo market \(seed 1\) built/);
  });

  test("every other shell block works as written, in order", async () => {
    assert.ok(server && server.exitCode === null, "the server is running");
    const runnable = blocks.filter((block) => block.mode === "run");
    const script = runnable
      .flatMap((block) => block.commands)
      .map((command, index) => `${onPort(command.text, port)}\nprintf '\\n@@done %d %d\\n' ${index} $?`)
      .join("\n");
    const output = await runShell(script, folder, newcomerEnv(port));
    const commands = runnable.flatMap((block) => block.commands);
    const pieces = splitByMarkers(output);
    for (const [index, command] of commands.entries()) {
      const piece = pieces.get(index);
      assert.ok(piece, `no output marker after: ${command.text}\n${output.slice(-2000)}`);
      assert.equal(piece.status, 0, `exit ${piece.status}: ${command.text}\n${piece.output.slice(0, 2000)}`);
      if (command.expected) {
        // Not assert.match: its report would quote megabytes of a whole-market answer.
        assert.ok(
          command.expected.test(piece.output.replace(/\s+/g, "")),
          `${command.text}\nshould print ${command.expected}\nprinted: ${piece.output.slice(0, 600)}`,
        );
      }
    }
  });
});

/** The environment of a new user's terminal: nothing of the test runner's own configuration. */
function newcomerEnv(port: number): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) };
}

/** The README speaks of the default port; the test's server listens on a free one. */
function onPort(text: string, port: number): string {
  return text.replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`);
}

function splitByMarkers(output: string): Map<number, { status: number; output: string }> {
  const pieces = new Map<number, { status: number; output: string }>();
  let start = 0;
  for (const match of output.matchAll(/\n@@done (\d+) (\d+)\n/g)) {
    pieces.set(Number(match[1]), { status: Number(match[2]), output: output.slice(start, match.index) });
    start = match.index + match[0].length;
  }
  return pieces;
}

function runShell(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-s"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", () => resolve(output));
    child.stdin.end(script);
  });
}

async function waitForServing(child: ChildProcess, output: () => string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`npm start exited (${code}):\n${output()}`));
    child.once("exit", onExit);
    const check = setInterval(() => {
      if (!output().includes('"msg":"skinmarket is serving"') && !/skinmarket is serving/.test(output()))
        return;
      clearInterval(check);
      child.off("exit", onExit);
      resolve();
    }, 200);
  });
}
