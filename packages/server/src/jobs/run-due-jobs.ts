import { sql } from "kysely";
import type { DomainContext } from "../domain/context.ts";
import { purgeEndedSessions } from "../domain/sessions/purge-ended-sessions.ts";
import { purgeSignInFailures } from "../domain/sessions/sign-in-throttle.ts";
import { inTransaction, noteNoMarketChange } from "../domain/transaction.ts";
import { ok } from "../domain/result.ts";
import { expireTradeOffers } from "../platform/sandbox/trade-offers.ts";
import { confirmCardPayments } from "../domain/trades/confirm-card-payments.ts";
import { syncTrades } from "../domain/trades/sync-trades.ts";
import { releaseProtectedTrades } from "../domain/trades/release-protected-trades.ts";
import { expireMargin } from "../domain/buy-orders/expire-margin.ts";
import { crossStandingOrders } from "../domain/buy-orders/cross-standing-orders.ts";
import { checkStoredCookies } from "../domain/platform-accounts/check-stored-cookies.ts";
import { purgeOldEvents } from "../domain/events/read-events.ts";
import { purgeIdempotencyKeys } from "../domain/idempotency-keys.ts";
import { deliverDueWebhooks } from "../domain/webhooks/delivery-pool.ts";
import { LIQUIDITY_LOCK_KEY, refreshLiquidityRanks } from "../domain/liquidity/recompute-liquidity-ranks.ts";

export interface Job {
  name: string;
  /**
   * Advisory lock key: one instance runs the job at a time, the others skip it this round. Null
   * for a job that locks the rows it works on itself.
   */
  lockKey: number | null;
  run(ctx: DomainContext): Promise<number>;
  /**
   * Run only when asked (`/sandbox/jobs/run`), not by the scheduler: the server runs it on its own
   * (webhook deliveries: the `WebhookWorker`, woken by new events).
   */
  onDemandOnly?: boolean;
  /**
   * The job writes no listing, buy order or figure of the market, so its commits must not make the
   * price snapshots read the market again (a transaction that names no goods counts as a change to
   * everything: without this, every round of the scheduler rebuilt the whole market).
   */
  offMarket?: boolean;
}

export const JOBS: readonly Job[] = [
  { name: "purge-ended-sessions", lockKey: 730_101, run: purgeEndedSessions, offMarket: true },
  { name: "expire-trade-offers", lockKey: 730_102, run: expireTradeOffers, offMarket: true },
  { name: "purge-idempotency-keys", lockKey: 730_103, run: purgeIdempotencyKeys, offMarket: true },
  { name: "purge-sign-in-failures", lockKey: 730_116, run: purgeSignInFailures, offMarket: true },
  { name: "purge-old-events", lockKey: 730_121, run: purgeOldEvents, offMarket: true },
  { name: "check-platform-cookies", lockKey: 730_122, run: checkStoredCookies, offMarket: true },
  // Settles each trade in its own transaction, rows taken with SKIP LOCKED: no job-wide lock.
  { name: "confirm-card-payments", lockKey: null, run: confirmCardPayments },
  { name: "sync-trades", lockKey: null, run: syncTrades },
  // Each trade under its own row lock, the one a reversal takes: no job-wide lock.
  { name: "release-protected-trades", lockKey: null, run: releaseProtectedTrades, offMarket: true },
  // Each user under the lock of their accounts, recomputed there: no job-wide lock.
  { name: "expire-margin", lockKey: null, run: expireMargin },
  // After the jobs that give units back or cancel orders; each fill locks its own rows.
  { name: "cross-standing-orders", lockKey: null, run: crossStandingOrders },
  // Due once a day by the marketplace clock; the lock is the one the sandbox's recomputation takes.
  { name: "refresh-liquidity-ranks", lockKey: LIQUIDITY_LOCK_KEY, run: refreshLiquidityRanks },
  // Each endpoint leased to one instance: no job-wide lock. Last: it sends what the others wrote.
  { name: "deliver-webhooks", lockKey: null, run: deliverDueWebhooks, onDemandOnly: true },
];

export interface JobRun {
  name: string;
  processed: number;
}

/**
 * Runs every job once, now, by the marketplace clock. Safe on several instances at once: each job
 * runs under `pg_try_advisory_xact_lock`, and an instance that does not get the lock skips it.
 */
export async function runDueJobs(ctx: DomainContext, jobs: readonly Job[] = JOBS): Promise<JobRun[]> {
  const runs: JobRun[] = [];
  for (const job of jobs) {
    const lockKey = job.lockKey;
    if (lockKey === null) {
      runs.push({ name: job.name, processed: await job.run(ctx) });
      continue;
    }
    const result = await inTransaction(ctx, async (tx) => {
      const lock = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${lockKey}) AS locked`.execute(tx.db);
      if (!lock.rows[0]?.locked) {
        noteNoMarketChange(tx);
        return ok(0);
      }
      const processed = await job.run(tx);
      if (job.offMarket) noteNoMarketChange(tx);
      return ok(processed);
    });
    runs.push({ name: job.name, processed: result.ok ? result.value : 0 });
  }
  return runs;
}

/** Runs the jobs every `intervalMs` until stopped; a failing round is logged and the next one runs. */
export function startJobScheduler(ctx: DomainContext, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = runDueJobs(
      ctx,
      JOBS.filter((job) => !job.onDemandOnly),
    ).catch((error: unknown) => ctx.log.error({ err: error }, "scheduled jobs failed"));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
