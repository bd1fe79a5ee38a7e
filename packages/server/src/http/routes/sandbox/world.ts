import { sandboxAdvanceClock, sandboxGetClock, sandboxReset, sandboxRunJobs } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds, type OffsetClock } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { advanceClock } from "../../../domain/sandbox/advance-clock.ts";
import { resetWorld } from "../../../domain/sandbox/reset-world.ts";
import { JOBS, runDueJobs } from "../../../jobs/run-due-jobs.ts";
import type { EventLog } from "../../../domain/events/event-log.ts";
import { registerOperation } from "../../operation-route.ts";

/** The sandbox's world controls: clock, jobs and reset. */
export function registerSandboxWorld(app: FastifyInstance, clock: OffsetClock, eventLog: EventLog): void {
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

  registerOperation(app, sandboxRunJobs, async ({ ctx }) => {
    // The jobs first; then webhook deliveries, once what committed before them (the request's
    // earlier calls, the jobs just run) has its events, and so its deliveries, written.
    await eventLog.catchUp();
    const runs = await runDueJobs(
      ctx,
      JOBS.filter((job) => !job.onDemandOnly),
    );
    await eventLog.catchUp();
    runs.push(
      ...(await runDueJobs(
        ctx,
        JOBS.filter((job) => job.onDemandOnly),
      )),
    );
    return ok({ jobs: runs });
  });

  registerOperation(app, sandboxReset, async ({ ctx }) => {
    const reset = await resetWorld(ctx, { clock });
    if (!reset.ok) return reset;
    return ok({ reset: true as const });
  });
}
