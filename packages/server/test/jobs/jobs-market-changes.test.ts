import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { MarketChanges } from "../../src/domain/market/market-changes.ts";
import { JOBS, runDueJobs } from "../../src/jobs/run-due-jobs.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestContext } from "../support/test-context.ts";

describe("the scheduler's rounds and the market snapshots", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  const changes = new MarketChanges();
  before(async () => {
    const opened = await openTestContext({ kind: "system" });
    database = opened.database;
    ctx = { ...opened.ctx, afterCommit: (goods) => changes.committed(goods) };
  });
  after(() => database.close());

  test("the day's liquidity ranks count as a change to the ranks alone, not to everything", async () => {
    const before = changes.version;
    // The first round computes the day's liquidity ranks.
    const runs = await runDueJobs(ctx);
    assert.ok(runs.some((run) => run.name === "refresh-liquidity-ranks"));
    assert.equal(changes.everythingSince(before), false);
    assert.equal(changes.ranksChangedSince(before), true);
    assert.deepEqual([...(changes.changedSince(before) as Set<number>)], []);
  });

  test("a round on a quiet market counts no change, so no snapshot reads the market again", async () => {
    const before = changes.version;
    for (let round = 0; round < 3; round++) await runDueJobs(ctx);
    assert.equal(changes.version, before, "a quiet round must not count as a change to everything");
  });

  test("the jobs that say they are off the market are the housekeeping ones", () => {
    assert.deepEqual(
      JOBS.filter((job) => job.offMarket).map((job) => job.name),
      [
        "purge-ended-sessions",
        "expire-trade-offers",
        "purge-idempotency-keys",
        "purge-sign-in-failures",
        "purge-old-events",
        "check-platform-cookies",
        // Money from escrow to the seller's balance: no listing, order or price moves.
        "release-protected-trades",
      ],
    );
  });
});
