import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { templates } from "./test-templates.ts";

export const MAIN = join(import.meta.dirname, "../../src/main.ts");

/** Variables that steer the command: unset in every run unless a test sets them. */
const STEERING = [
  "PORT",
  "HOST",
  "DATA_DIR",
  "SKINMARKET_URL",
  "SKINMARKET_TOKEN",
  "SANDBOX_ADMIN_TOKEN",
  "DATABASE_URL",
  "DEMO",
  "STEAM_FACE_PORT",
  "TRADE_PROTECTION_HOURS",
];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of STEERING) delete base[name];
  return { ...base, ...env };
}

/** Runs `skinmarket ...` to its end in `cwd`, with only the steering variables given. */
export function runSkinmarket(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: environment(options.env ?? {}),
      stdio: "pipe",
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `skinmarket ...` without waiting for it: for commands that run until interrupted. */
export function spawnSkinmarket(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [MAIN, ...args], { env: environment(env), stdio: "pipe" });
}

/** Starts `skinmarket serve` and resolves once it says it is serving. */
export function startSkinmarket(
  args: string[],
  env: Record<string, string>,
): Promise<{ server: ChildProcess; url: string; output: () => string }> {
  const server = spawn(process.execPath, [MAIN, "serve", ...args], {
    env: environment({ DEMO: "off", ...env }),
    stdio: "pipe",
  });
  let output = "";
  return new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /"url":"(http:\/\/[^"]+)".*skinmarket is serving/.exec(output);
      if (match?.[1]) resolve({ server, url: match[1], output: () => output });
    });
    server.stderr.on("data", (chunk: Buffer) => (output += chunk));
    server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

/** A port nothing listens on now: the system gives one, and it is let go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * A new data directory for `skinmarket serve`, in the system's temporary folder: under the tests'
 * global setup its embedded database is a copy of one already migrated and holding the catalog,
 * as a server leaves it after its first start; a file run on its own gets an empty one, which the
 * server fills at its start. For suites about what a server does once started; a suite about the
 * first start itself (the demo market's, the README's `npm start`) takes an empty folder.
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const seed = templates().dataDir;
  if (seed) await cp(seed, dataDir, { recursive: true });
  return dataDir;
}
