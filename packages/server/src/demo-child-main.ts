/**
 * The process that builds the demo market at a first start (`build-demo-in-child.ts` starts it):
 * it takes the server's configuration over its IPC channel, builds as the server's own process did
 * (the same seed, credentials file, log lines and summary), answers whether it built, and exits,
 * giving back every byte the build grew.
 */
import type { Logger } from "pino";
import type { DemoBuildAnswer, DemoBuildOrder } from "./build-demo-in-child.ts";
import type { Config } from "./config.ts";
import { OffsetClock, systemClock } from "./domain/clock.ts";
import type { DomainContext } from "./domain/context.ts";
import { loadClockOffset } from "./domain/sandbox/advance-clock.ts";
import { SecretBox } from "./domain/secret-box.ts";
import { buildDemoAtStart } from "./demo/demo-at-start.ts";
import { SandboxPlatform } from "./platform/sandbox/sandbox-platform.ts";
import {
  createLogger,
  loadCatalogAtStart,
  marketRules,
  openConfiguredDatabase,
  secretKey,
} from "./server.ts";
import { DataDirLockedError } from "./storage/data-dir-lock.ts";

let answered = false;
// A server gone before the answer (killed without a chance to pass its signal on) wants no market:
// the build stops rather than hold the data directory for nobody. It hears of it only at a turn of
// its event loop, which the build's statements leave few of: tens of seconds, or at the end.
process.once("disconnect", () => {
  if (!answered) process.exit(1);
});
process.once("message", (order: DemoBuildOrder) => void build(order));

async function build({ config, newEmbeddedDatabase }: DemoBuildOrder): Promise<void> {
  const log = createLogger(config);
  let answer: DemoBuildAnswer;
  try {
    answer = { kind: "demo-built", built: await buildOnItsOwnDatabase(config, newEmbeddedDatabase, log) };
  } catch (error) {
    const dataDirLocked = error instanceof DataDirLockedError;
    // The server reports the failure in one line; the stack is for whoever reads the log.
    if (!dataDirLocked) log.error({ err: error }, "the demo market's build failed");
    process.exitCode = 1;
    answer = {
      kind: "demo-build-failed",
      message: error instanceof Error ? error.message : String(error),
      dataDirLocked,
    };
  }
  answered = true;
  process.send?.(answer, () => {
    if (process.connected) process.disconnect();
  });
}

async function buildOnItsOwnDatabase(
  config: Config,
  newEmbeddedDatabase: boolean,
  log: Logger,
): Promise<boolean> {
  const database = await openConfiguredDatabase(config, log);
  try {
    const clock = config.sandbox ? new OffsetClock() : undefined;
    const ctx: DomainContext = {
      db: database.db,
      clock: clock ?? systemClock,
      actor: { kind: "system" },
      log,
      platform: new SandboxPlatform(),
      secretBox: new SecretBox(await secretKey(config, log)),
      rules: marketRules(config),
    };
    if (clock) await loadClockOffset(ctx, clock);
    await loadCatalogAtStart(ctx, log);
    const baseUrl = `http://${config.host}:${config.port}`;
    return await buildDemoAtStart(config, ctx, { newEmbeddedDatabase, baseUrl }, log);
  } finally {
    await database.close();
  }
}
