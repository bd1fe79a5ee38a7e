import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = join(import.meta.dirname, "../../..");
const MAIN = join(ROOT, "packages/server/src/main.ts");
/** Resident size counts as steady from this long after the port opened. */
const SETTLED_MS = 15_000;
/** The pause between two `/healthz` probes (each waits for the answer before the next). */
const PROBE_GAP_MS = 10;

export interface StartFigures {
  /** `first start` (a new data directory: the demo market is built first) or `restart`. */
  start: "first start" | "restart";
  /** From the spawn to the first answer on the port, in milliseconds. */
  portOpenMs: number;
  healthz: { probes: number; maxMs: number; p99Ms: number; failures: number };
  signIns: { done: number; refused: number };
  /**
   * The server's own largest event-loop stall (`nodejs_eventloop_lag_max_seconds`, which each read
   * of `/metrics` starts again): from its start to the port's opening, and from then to the end.
   */
  eventLoopLagMaxMs: { beforeOpen: number; afterOpen: number };
  /** Resident size of the serving process from `SETTLED_MS` after the port opened to the end. */
  residentMb: { min: number; max: number; samples: number };
}

/**
 * `npm run bench -- start` (issue 19's start and memory goals, docs/design/performance.md#a-quiet-server-and-its-memory):
 * `skinmarket serve` as `npm start` runs it (its Node flags, the embedded database, the demo
 * market wanted), on a new data directory and then restarted on it. From the moment the port
 * opens, `/healthz` is asked without pause (the next probe 10 ms after each answer) for
 * `seconds`, while the demo's traders sign in `signInsPerSecond` times a second (each sign-in
 * hashes a password); the resident size of the serving process is read from /proc every second.
 * `nodeOptions` are given to the server (`NODE_OPTIONS`, after `npm start`'s flags), to compare
 * V8 settings.
 */
export async function benchStart(input: {
  seconds: number;
  signInsPerSecond: number;
  nodeOptions?: string;
  progress: (line: string) => void;
}): Promise<StartFigures[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "skinmarket-bench-start-"));
  try {
    const figures: StartFigures[] = [];
    for (const start of ["first start", "restart"] as const) {
      input.progress(`${start}: skinmarket serve on ${dataDir}, ${input.seconds} s after the port opens`);
      figures.push(await measureStart({ ...input, start, dataDir }));
    }
    return figures;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function measureStart(input: {
  start: StartFigures["start"];
  dataDir: string;
  seconds: number;
  signInsPerSecond: number;
  nodeOptions?: string;
  progress: (line: string) => void;
}): Promise<StartFigures> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  const server = spawnServer(input.dataDir, port, await startScriptFlags(), input.nodeOptions);
  try {
    // Asked every 5 ms until the port answers: the first answer is the port's opening.
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before serving`);
      if (await answers(`${base}/healthz`)) break;
      await sleep(5);
    }
    const opened = performance.now();
    const beforeOpen = await eventLoopLagMaxMs(base);
    input.progress(
      `${input.start}: the port answered ${((opened - spawned) / 1000).toFixed(1)} s after the spawn`,
    );
    const until = opened + input.seconds * 1000;
    const [healthz, signIns, resident] = await Promise.all([
      probeHealth(base, until),
      signInTraders(base, input.dataDir, input.signInsPerSecond, until),
      residentSizes(server.pid!, opened + SETTLED_MS, until),
    ]);
    const afterOpen = await eventLoopLagMaxMs(base);
    return {
      start: input.start,
      portOpenMs: opened - spawned,
      healthz,
      signIns,
      eventLoopLagMaxMs: { beforeOpen, afterOpen },
      residentMb: resident,
    };
  } finally {
    await stopServer(server);
  }
}

/** The largest event-loop stall since `/metrics` was last read, in milliseconds. */
async function eventLoopLagMaxMs(base: string): Promise<number> {
  const metrics = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics)?.[1] ?? Number.NaN) * 1000;
}

/** The Node flags `npm start` gives the server (`"start": "exec node <flags> .../main.ts serve"`). */
async function startScriptFlags(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = manifest.scripts.start!.split(/\s+/);
  return words.slice(words.indexOf("node") + 1).filter((word) => word.startsWith("--"));
}

function spawnServer(
  dataDir: string,
  port: number,
  nodeFlags: string[],
  nodeOptions: string | undefined,
): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, DEMO: "auto" };
  for (const name of ["DATABASE_URL", "PORT", "HOST", "DATA_DIR", "SANDBOX_ADMIN_TOKEN"]) delete env[name];
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  const server = spawn(
    process.execPath,
    [...nodeFlags, MAIN, "serve", "--port", String(port), "--data-dir", dataDir, "--log-level", "warn"],
    { env, stdio: ["ignore", "ignore", "pipe"] },
  );
  server.stderr?.resume();
  return server;
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function probeHealth(base: string, until: number): Promise<StartFigures["healthz"]> {
  const times: number[] = [];
  let failures = 0;
  while (performance.now() < until) {
    const asked = performance.now();
    const ok = await answers(`${base}/healthz`);
    times.push(performance.now() - asked);
    if (!ok) failures += 1;
    await sleep(PROBE_GAP_MS);
  }
  times.sort((a, b) => a - b);
  return {
    probes: times.length,
    maxMs: times.at(-1) ?? Number.NaN,
    p99Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Number.NaN,
    failures,
  };
}

/** The demo's traders sign in one after another, at the rate given, until `until`. */
async function signInTraders(
  base: string,
  dataDir: string,
  perSecond: number,
  until: number,
): Promise<StartFigures["signIns"]> {
  const figures = { done: 0, refused: 0 };
  if (perSecond <= 0) return figures;
  const { traders } = JSON.parse(await readFile(join(dataDir, "demo-traders.json"), "utf8")) as {
    traders: Array<{ nickname: string; password: string }>;
  };
  const gap = 1000 / perSecond;
  for (let next = performance.now(); next < until; next += gap) {
    await sleep(Math.max(0, next - performance.now()));
    const trader = traders[(figures.done + figures.refused) % traders.length]!;
    const answer = await fetch(`${base}/account/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ nickname: trader.nickname, password: trader.password }),
    });
    await answer.arrayBuffer();
    if (answer.ok) figures.done += 1;
    else figures.refused += 1;
  }
  return figures;
}

/** The resident size of `pid` (VmRSS), read every second from `from` to `until`. */
async function residentSizes(pid: number, from: number, until: number): Promise<StartFigures["residentMb"]> {
  await sleep(Math.max(0, from - performance.now()));
  const sizes: number[] = [];
  while (performance.now() < until) {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
    if (Number.isFinite(kib)) sizes.push(kib / 1024);
    await sleep(1000);
  }
  return {
    min: sizes.length ? Math.min(...sizes) : Number.NaN,
    max: sizes.length ? Math.max(...sizes) : Number.NaN,
    samples: sizes.length,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
