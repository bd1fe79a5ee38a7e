import { fork } from "node:child_process";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { DataDirLockedError } from "./storage/data-dir-lock.ts";

/** What the server sends the build's process: all it needs to open the data directory as itself. */
export interface DemoBuildOrder {
  config: Config;
  newEmbeddedDatabase: boolean;
}

/** The build's one answer, sent before it exits. */
export type DemoBuildAnswer =
  | { kind: "demo-built"; built: boolean }
  | { kind: "demo-build-failed"; message: string; dataDirLocked: boolean };

/**
 * The build did not finish: its process failed (and logged its own stack) or was stopped. The
 * message says all there is to say; this process's stack would only show the IPC plumbing.
 */
export class DemoBuildFailed extends Error {}

const CHILD_MAIN = new URL("./demo-child-main.ts", import.meta.url);
const STOPPING_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Builds the demo market wanted at a first start in a Node process of its own (`demo-child-main.ts`,
 * the same Node and flags, environment and configuration) and answers whether it built: the build
 * grows PGlite's WebAssembly memory and the C heap, which a process never gives back, so the
 * server's own process must not be the one that builds (docs/design/performance.md#a-quiet-server-and-its-memory). The child opens
 * the data directory, and so holds its lock, until it exits; the server opens it after. Its log lines
 * and the summary for the person go straight to this process's stdout and stderr. A SIGINT or
 * SIGTERM meanwhile is passed on to it, and the start stops once it has exited.
 */
export function buildDemoInChild(
  config: Config,
  newEmbeddedDatabase: boolean,
  log: Logger,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD_MAIN, { serialization: "advanced" });
    let answer: DemoBuildAnswer | undefined;
    let stoppedBy: NodeJS.Signals | undefined;
    const passOn = (signal: NodeJS.Signals) => {
      stoppedBy ??= signal;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const settle = (result: boolean | Error) => {
      for (const signal of STOPPING_SIGNALS) process.off(signal, passOn);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    for (const signal of STOPPING_SIGNALS) process.on(signal, passOn);
    // Only the answer: under `node --watch` the child also reports each module it imports.
    child.on("message", (message: unknown) => {
      if (isAnswer(message)) answer ??= message;
    });
    child.once("error", (error) =>
      settle(
        new DemoBuildFailed(`could not start the process that builds the demo market: ${error.message}`),
      ),
    );
    // "close" rather than "exit": it comes after the answer, which travels apart from the exit.
    child.once("close", (code, signal) =>
      settle(outcome(`the demo market's build (process ${child.pid})`, { answer, code, signal, stoppedBy })),
    );
    if (child.pid !== undefined) {
      log.info({ process: child.pid }, `building the demo market in process ${child.pid}`);
      child.send({ config, newEmbeddedDatabase } satisfies DemoBuildOrder);
    }
  });
}

/** Whether the build built, or why the start stops, once its process has ended. */
function outcome(
  build: string,
  ended: {
    answer: DemoBuildAnswer | undefined;
    code: number | null;
    signal: NodeJS.Signals | null;
    stoppedBy: NodeJS.Signals | undefined;
  },
): boolean | Error {
  const { answer, code, signal, stoppedBy } = ended;
  if (stoppedBy)
    return new DemoBuildFailed(`stopped by ${stoppedBy} during ${build}; the server did not start`);
  if (answer?.kind === "demo-built" && code === 0) return answer.built;
  if (answer?.kind === "demo-build-failed")
    return answer.dataDirLocked
      ? new DataDirLockedError(answer.message)
      : new DemoBuildFailed(`${build} failed: ${answer.message}`);
  return new DemoBuildFailed(
    `${build} ended (${signal ?? `exit code ${code}`}) before it said whether it built`,
  );
}

function isAnswer(message: unknown): message is DemoBuildAnswer {
  const kind = (message as Partial<DemoBuildAnswer> | null)?.kind;
  return kind === "demo-built" || kind === "demo-build-failed";
}
