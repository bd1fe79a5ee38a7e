import { formatMoney, type Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { LedgerAccountKind, SystemAccountKind, UserAccountKind } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { constraintName, sqlState } from "../transaction.ts";

/**
 * The wallet is a double-entry ledger (docs/design.md section 5): every money movement is one
 * journal entry whose lines sum to zero, and each line changes one account's balance. The
 * `ledger_accounts_balance_not_negative` constraint refuses any line that would overdraw an
 * account, so a concurrent spender can never take a balance below zero.
 */

export const USER_ACCOUNT_KINDS: readonly UserAccountKind[] = ["balance", "margin", "wallet", "escrow"];

export type AccountRef = { userId: number; kind: UserAccountKind } | { system: SystemAccountKind };

export interface JournalLine {
  account: AccountRef;
  amount: Fen;
}

export interface JournalEntry {
  kind: string;
  reference?: string;
  memo?: Record<string, unknown>;
  lines: JournalLine[];
}

export async function openUserAccounts(ctx: DomainContext, userId: number): Promise<void> {
  await ctx.db
    .insertInto("ledger_accounts")
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ user_id: userId, kind })))
    .execute();
}

/**
 * Posts one journal entry inside the caller's transaction. Answers `Insufficient Balance` when a
 * line would take an account below zero; the caller's transaction must then roll back (returning
 * the failure from `inTransaction` does that).
 */
export async function postJournalEntry(ctx: DomainContext, entry: JournalEntry): Promise<Result<number>> {
  if (!ctx.db.isTransaction) throw new Error("postJournalEntry must run inside a transaction");
  const lines = entry.lines.filter((line) => line.amount !== 0);
  if (lines.length < 2) throw new Error(`journal entry ${entry.kind} needs at least two non-zero lines`);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  if (total !== 0) throw new Error(`journal entry ${entry.kind} does not balance: lines sum to ${total}`);

  const accountIds = await Promise.all(lines.map((line) => resolveAccountId(ctx, line.account)));
  const { entry_id: entryId } = await ctx.db
    .insertInto("journal_entries")
    .values({
      kind: entry.kind,
      created_at: ctx.clock.now(),
      reference: entry.reference ?? null,
      memo: JSON.stringify(entry.memo ?? {}),
    })
    .returning("entry_id")
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto("journal_lines")
    .values(
      lines.map((line, index) => ({
        entry_id: entryId,
        account_id: accountIds[index]!,
        amount: line.amount,
      })),
    )
    .execute();

  // Balances change in account-id order, so two entries touching the same accounts always lock
  // them in the same order and cannot deadlock each other.
  const changes = lines
    .map((line, index) => ({ line, accountId: accountIds[index]! }))
    .sort((a, b) => a.accountId - b.accountId);
  for (const { line, accountId } of changes) {
    try {
      await ctx.db
        .updateTable("ledger_accounts")
        .set({ balance: sql<number>`balance + ${line.amount}` })
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (sqlState(error) === "23514" && constraintName(error) === "ledger_accounts_balance_not_negative") {
        return fail("Insufficient Balance", insufficientMessage(line));
      }
      throw error;
    }
  }
  return ok(entryId);
}

function insufficientMessage(line: JournalLine): string {
  const name = "system" in line.account ? line.account.system : line.account.kind;
  return `insufficient ${name} funds for ${formatMoney(-line.amount)}`;
}

async function resolveAccountId(ctx: DomainContext, account: AccountRef): Promise<number> {
  const query =
    "system" in account
      ? ctx.db
          .selectFrom("ledger_accounts")
          .select("account_id")
          .where("kind", "=", account.system)
          .where("user_id", "is", null)
      : ctx.db
          .selectFrom("ledger_accounts")
          .select("account_id")
          .where("user_id", "=", account.userId)
          .where("kind", "=", account.kind);
  const row = await query.executeTakeFirst();
  if (!row) throw new Error(`ledger account ${JSON.stringify(account)} does not exist`);
  return row.account_id;
}

export type UserBalances = Record<UserAccountKind, Fen>;

export async function readUserBalances(ctx: DomainContext, userId: number): Promise<UserBalances> {
  const rows = await ctx.db
    .selectFrom("ledger_accounts")
    .select(["kind", "balance"])
    .where("user_id", "=", userId)
    .execute();
  const balances: UserBalances = { balance: 0, margin: 0, wallet: 0, escrow: 0 };
  for (const row of rows) balances[row.kind as UserAccountKind] = row.balance;
  return balances;
}

export type { LedgerAccountKind };
