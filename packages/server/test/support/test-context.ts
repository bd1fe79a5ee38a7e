import { OffsetClock } from "../../src/domain/clock.ts";
import { SecretBox } from "../../src/domain/secret-box.ts";
import { SandboxPlatform } from "../../src/platform/sandbox/sandbox-platform.ts";
import { DEFAULT_MARKET_RULES, type Actor, type DomainContext } from "../../src/domain/context.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestDatabase } from "./test-database.ts";

export const silentLog = { info() {}, warn() {}, error() {} };

/**
 * The sandbox platform and a fresh random sealing key. The platform's trade protection is zero
 * hours unless a suite asks for a window: a delivered trade is then paid to the seller at once,
 * the settlement most suites are about; the suites of trade protection give the window.
 */
export function testPlatform(tradeProtectionHours = 0) {
  return {
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(SecretBox.generateKey()),
    rules: { ...DEFAULT_MARKET_RULES, tradeProtectionHours },
  };
}

/** A fresh test database and a domain context on it, for tests of verbs below the HTTP layer. */
export async function openTestContext(
  actor: Actor = { kind: "admin" },
): Promise<{ database: DatabaseHandle; ctx: DomainContext }> {
  const database = await openTestDatabase();
  return {
    database,
    ctx: { db: database.db, clock: new OffsetClock(), actor, log: silentLog, ...testPlatform() },
  };
}
