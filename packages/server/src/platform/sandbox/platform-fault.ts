import { recordAudit } from "../../domain/audit.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";

/**
 * The sandbox platform's fault switch (docs/sandbox.md, "Platform outage"): while it is down,
 * reading an inventory and everything about trade offers fails, as a real platform's outage would
 * make them fail. Kept in `system_settings`, so every instance on the database sees it and a
 * restart keeps it; a sandbox reset clears it with the world.
 */
const FAULT_KEY = "sandbox_platform_fault";

export interface PlatformFault {
  down: boolean;
  /** Sandbox time it went down, in ms; null when up. */
  since: number | null;
  /** Sandbox time it comes back by itself, in ms; null: only when switched back up. */
  until: number | null;
}

const UP: PlatformFault = { down: false, since: null, until: null };

/** The switch as it stands now (an outage whose `until` has passed is over). */
export async function readPlatformFault(ctx: DomainContext): Promise<PlatformFault> {
  const row = await ctx.db
    .selectFrom("system_settings")
    .select("value")
    .where("key", "=", FAULT_KEY)
    .executeTakeFirst();
  const fault = (row?.value as PlatformFault | undefined) ?? UP;
  if (fault.down && fault.until !== null && fault.until <= ctx.clock.now().getTime()) return UP;
  return fault;
}

/** Switches the platform down (for `seconds` of sandbox time, or until switched up) or up. */
export async function setPlatformFault(
  ctx: DomainContext,
  input: { down: boolean; seconds?: number },
): Promise<Result<PlatformFault>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin switches the platform");
  const now = ctx.clock.now().getTime();
  const fault: PlatformFault = input.down
    ? { down: true, since: now, until: input.seconds !== undefined ? now + input.seconds * 1000 : null }
    : UP;
  const value = JSON.stringify(fault);
  await ctx.db
    .insertInto("system_settings")
    .values({ key: FAULT_KEY, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value }))
    .execute();
  await recordAudit(ctx, {
    action: input.down ? "sandbox.platform.down" : "sandbox.platform.up",
    details: { until: fault.until === null ? null : new Date(fault.until).toISOString() },
  });
  return ok(fault);
}

/** Refuses a platform call while the platform is down, with a message a bot's developer can act on. */
export async function requirePlatformUp(ctx: DomainContext): Promise<Result<void>> {
  const fault = await readPlatformFault(ctx);
  if (!fault.down) return ok(undefined);
  const back =
    fault.until === null ? "" : ` (expected back at ${new Date(fault.until).toISOString()}, sandbox time)`;
  return fail(
    "Invalid State",
    `the game platform is unavailable${back}; inventories and trade offers cannot be reached, try again later`,
  );
}
