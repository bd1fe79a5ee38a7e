import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { formatMoney } from "@skinmarket/contract";
import fc from "fast-check";
import { createUser } from "../../src/domain/accounts/create-user.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { fundAccount, withdrawFunds, type FundableAccount } from "../../src/domain/wallet/fund-account.ts";
import { readUserBalances } from "../../src/domain/wallet/ledger.ts";
import { transferFunds } from "../../src/domain/wallet/transfer-funds.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestContext } from "../support/test-context.ts";

type Model = Map<string, number>;
const ACCOUNTS: FundableAccount[] = ["balance", "margin", "wallet"];
const key = (user: number, account: string) => `${user}:${account}`;

type Command =
  | { kind: "deposit"; user: number; account: FundableAccount; fen: number }
  | { kind: "withdraw"; user: number; account: FundableAccount; fen: number }
  | {
      kind: "transfer";
      from: number;
      to: number;
      fromAccount: FundableAccount;
      toAccount: FundableAccount;
      fen: number;
    };

const USERS = 3;
const fen = fc.integer({ min: 1, max: 50_000 });
const user = fc.integer({ min: 0, max: USERS - 1 });
const account = fc.constantFrom(...ACCOUNTS);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant("deposit" as const), user, account, fen }),
  fc.record({ kind: fc.constant("withdraw" as const), user, account, fen }),
  fc.record({
    kind: fc.constant("transfer" as const),
    from: user,
    to: user,
    fromAccount: account,
    toAccount: account,
    fen,
  }),
);

/**
 * Random deposits, withdrawals and transfers, many of which must be refused for want of funds:
 * after every step the database agrees with a simple model, every entry's lines sum to zero and
 * no account is below zero. A refused step changes nothing.
 */
describe("wallet ledger (property)", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    ({ database, ctx } = await openTestContext());
  });
  after(() => database.close());

  test("lines always sum to zero and no balance goes negative", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        run += 1;
        const userIds: number[] = [];
        for (let index = 0; index < USERS; index++) {
          const created = await createUser(ctx, { nickname: `p${run}-${index}`, password: "property-test" });
          assert.ok(created.ok);
          userIds.push(created.value.userId);
        }
        const model: Model = new Map();
        const held = (id: number, name: string) => model.get(key(id, name)) ?? 0;
        for (const step of commands) {
          const outcome = await apply(ctx, userIds, step);
          const expected = expectedOutcome(step, userIds, held);
          assert.equal(outcome, expected, `${JSON.stringify(step)} should be ${expected}`);
          if (outcome === "ok") applyToModel(model, userIds, step);
          await assertLedgerInvariants(database.db);
          for (const id of userIds) {
            const balances = await readUserBalances(ctx, id);
            for (const name of ACCOUNTS) {
              assert.equal(formatMoney(balances[name]), formatMoney(held(id, name)), `${id} ${name}`);
            }
          }
        }
      }),
      { numRuns: process.env.TEST_DATABASE_URL ? 30 : 15 },
    );
  });
});

async function apply(ctx: DomainContext, ids: number[], step: Command): Promise<string> {
  const amount = (value: number) => formatMoney(value);
  const result =
    step.kind === "deposit"
      ? await fundAccount(ctx, { userId: ids[step.user]!, account: step.account, amount: amount(step.fen) })
      : step.kind === "withdraw"
        ? await withdrawFunds(ctx, {
            userId: ids[step.user]!,
            account: step.account,
            amount: amount(step.fen),
          })
        : await transferFunds(ctx, {
            kind: "transfer",
            from: { userId: ids[step.from]!, kind: step.fromAccount },
            to: { userId: ids[step.to]!, kind: step.toAccount },
            amount: step.fen,
          });
  return result.ok ? "ok" : result.failure.code;
}

function expectedOutcome(step: Command, ids: number[], held: (id: number, name: string) => number): string {
  if (step.kind === "deposit") return "ok";
  if (step.kind === "withdraw")
    return held(ids[step.user]!, step.account) >= step.fen ? "ok" : "Insufficient Balance";
  if (step.from === step.to && step.fromAccount === step.toAccount) return "Invalid Argument";
  return held(ids[step.from]!, step.fromAccount) >= step.fen ? "ok" : "Insufficient Balance";
}

function applyToModel(model: Model, ids: number[], step: Command): void {
  const change = (id: number, name: string, delta: number) =>
    model.set(key(id, name), (model.get(key(id, name)) ?? 0) + delta);
  if (step.kind === "deposit") change(ids[step.user]!, step.account, step.fen);
  else if (step.kind === "withdraw") change(ids[step.user]!, step.account, -step.fen);
  else {
    change(ids[step.from]!, step.fromAccount, -step.fen);
    change(ids[step.to]!, step.toAccount, step.fen);
  }
}
