import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createUser } from "../../src/domain/accounts/create-user.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import { fundAccount, withdrawFunds } from "../../src/domain/wallet/fund-account.ts";
import { readUserBalances } from "../../src/domain/wallet/ledger.ts";
import { transferFunds } from "../../src/domain/wallet/transfer-funds.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestContext } from "../support/test-context.ts";
import { usingPostgres } from "../support/test-database.ts";

/**
 * Racing spenders: on a PostgreSQL server these run on separate connections at the same time;
 * the non-negative balance constraint decides who wins. (On PGlite they run one after another,
 * which checks the arithmetic but not the race.)
 */
describe("wallet ledger under concurrency", { concurrency: false }, () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    ({ database, ctx } = await openTestContext());
  });
  after(() => database.close());

  test(`30 concurrent withdrawals of 10.00 from 100.00: exactly 10 succeed (${usingPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
    const user = await createUser(ctx, { nickname: "racer" });
    assert.ok(user.ok);
    const userId = user.value.userId;
    assert.ok((await fundAccount(ctx, { userId, account: "balance", amount: "100" })).ok);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => withdrawFunds(ctx, { userId, account: "balance", amount: "10" })),
    );
    const succeeded = results.filter((result) => result.ok).length;
    const refused = results.filter(
      (result) => !result.ok && result.failure.code === "Insufficient Balance",
    ).length;
    assert.equal(succeeded, 10);
    assert.equal(refused, 20);
    assert.equal((await readUserBalances(ctx, userId)).balance, 0);
    await assertLedgerInvariants(database.db);
  });

  test("crossing transfers between two users never deadlock and conserve money", async () => {
    const first = await createUser(ctx, { nickname: "alpha" });
    const second = await createUser(ctx, { nickname: "beta" });
    assert.ok(first.ok && second.ok);
    const a = first.value.userId;
    const b = second.value.userId;
    await fundAccount(ctx, { userId: a, account: "balance", amount: "50" });
    await fundAccount(ctx, { userId: b, account: "balance", amount: "50" });
    const transfers = Array.from({ length: 40 }, (_, index) =>
      transferFunds(ctx, {
        kind: "transfer",
        from: { userId: index % 2 ? a : b, kind: "balance" },
        to: { userId: index % 2 ? b : a, kind: "balance" },
        amount: 100 + index,
      }),
    );
    const results = await Promise.all(transfers);
    assert.ok(results.every((result) => result.ok));
    const total = (await readUserBalances(ctx, a)).balance + (await readUserBalances(ctx, b)).balance;
    assert.equal(total, 10_000);
    await assertLedgerInvariants(database.db);
  });
});
