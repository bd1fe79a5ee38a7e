import { sandboxAdvanceClock, sandboxGetClock, sandboxReset, sandboxRunJobs } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds, type OffsetClock } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { advanceClock } from "../../../domain/sandbox/advance-clock.ts";
import { resetWorld } from "../../../domain/sandbox/reset-world.ts";
import { runDueJobs } from "../../../jobs/run-due-jobs.ts";
import { registerOperation } from "../../operation-route.ts";

/** The sandbox's world controls: clock, jobs and reset. */
export function registerSandboxWorld(app: FastifyInstance, clock: OffsetClock): void {
  const clockView = () => ({
    now: toUnixSeconds(clock.now()),
    offset_seconds: Math.floor(clock.offsetMs / 1000),
  });

  registerOperation(app, sandboxGetClock, async () => ok(clockView()));

  registerOperation(app, sandboxAdvanceClock, async ({ ctx, body }) => {
    const advanced = await advanceClock(ctx, { clock, seconds: body.seconds });
    if (!advanced.ok) return advanced;
    return ok(clockView());
  });

  registerOperation(app, sandboxRunJobs, async ({ ctx }) => ok({ jobs: await runDueJobs(ctx) }));

  registerOperation(app, sandboxReset, async ({ ctx }) => {
    const reset = await resetWorld(ctx, { clock });
    if (!reset.ok) return reset;
    return ok({ reset: true as const });
  });
}
