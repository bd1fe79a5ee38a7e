import { formatMoney, type Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { LedgerAccountKind, SystemAccountKind, UserAccountKind } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

/**
 * The wallet is a double-entry ledger (docs/design/money-and-ledger.md#money-and-the-ledger): every money movement is one
 * journal entry whose lines sum to zero, and each line changes one account's balance. The
 * `ledger_accounts_balance_not_negative` constraint refuses any line that would overdraw an
 * account, so a concurrent spender can never take a balance below zero.
 */

export const USER_ACCOUNT_KINDS: readonly UserAccountKind[] = ["balance", "margin", "wallet", "escrow"];

/** The accounts allowed below zero: the outside world's side and the house's side of money moved by hand. */
export const HOUSE_SIDES: readonly LedgerAccountKind[] = ["external", "adjustments"];

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

/** A ledger account as locked for an entry: its balance cannot change until the transaction ends. */
export interface LockedAccount {
  account_id: number;
  user_id: number | null;
  kind: LedgerAccountKind;
  balance: Fen;
}

/**
 * Locks a user's accounts, in id order, and answers their balances: for a caller that decides an
 * entry's lines from the balances (which account pays) and then posts it with `postJournalEntry`.
 */
export async function lockUserAccounts(
  ctx: DomainContext,
  userId: number,
  systemAccounts: readonly SystemAccountKind[] = [],
): Promise<{ accounts: LockedAccount[]; balances: UserBalances }> {
  if (!ctx.db.isTransaction) throw new Error("lockUserAccounts must run inside a transaction");
  // System accounts the entry will also touch are locked in the same id-ordered statement: taken
  // later, they would be locked out of order (their ids are lower) and could deadlock.
  const accounts = await ctx.db
    .selectFrom("ledger_accounts")
    .select(["account_id", "user_id", "kind", "balance"])
    .where((eb) =>
      eb.or([
        eb("user_id", "=", userId),
        ...(systemAccounts.length > 0
          ? [eb.and([eb("user_id", "is", null), eb("kind", "in", [...systemAccounts])])]
          : []),
      ]),
    )
    .orderBy("account_id")
    .forUpdate()
    .execute();
  return { accounts, balances: balancesOf(accounts.filter((account) => account.user_id !== null)) };
}

/**
 * Posts one journal entry inside the caller's transaction. Answers `Insufficient Balance`, having
 * written nothing, when the entry would take an account below zero. Accounts the caller has
 * already locked (`lockUserAccounts`) are not looked up again.
 */
export async function postJournalEntry(
  ctx: DomainContext,
  entry: JournalEntry,
  alreadyLocked: readonly LockedAccount[] = [],
): Promise<Result<number>> {
  if (!ctx.db.isTransaction) throw new Error("postJournalEntry must run inside a transaction");
  const lines = entry.lines.filter((line) => line.amount !== 0);
  if (lines.length < 2) throw new Error(`journal entry ${entry.kind} needs at least two non-zero lines`);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  if (total !== 0) throw new Error(`journal entry ${entry.kind} does not balance: lines sum to ${total}`);

  // Resolve and lock the entry's accounts in one query, in id order (two entries on the same
  // accounts cannot deadlock); then refuse an overdraft before anything is written, so the
  // caller's transaction stays usable (it may try another account). The CHECK constraint on
  // balances stays as the backstop.
  const find = (rows: readonly LockedAccount[], account: AccountRef) =>
    rows.find((candidate) =>
      "system" in account
        ? candidate.user_id === null && candidate.kind === account.system
        : candidate.user_id === account.userId && candidate.kind === account.kind,
    );
  const missing = lines.filter(({ account }) => !find(alreadyLocked, account));
  if (missing.length > 0 && alreadyLocked.length > 0)
    throw new Error(`journal entry ${entry.kind}: lock every account of the entry together, in id order`);
  const locked =
    missing.length === 0
      ? alreadyLocked
      : await ctx.db
          .selectFrom("ledger_accounts")
          .select(["account_id", "user_id", "kind", "balance"])
          .where((eb) =>
            eb.or(
              missing.map(({ account }) =>
                "system" in account
                  ? eb.and([eb("user_id", "is", null), eb("kind", "=", account.system)])
                  : eb.and([eb("user_id", "=", account.userId), eb("kind", "=", account.kind)]),
              ),
            ),
          )
          .orderBy("account_id")
          .forUpdate()
          .execute();
  const accountIds = lines.map(({ account }) => {
    const row = find(locked, account) ?? find(alreadyLocked, account);
    if (!row) throw new Error(`ledger account ${JSON.stringify(account)} does not exist`);
    return row;
  });
  const net = new Map<LockedAccount, Fen>();
  lines.forEach((line, index) =>
    net.set(accountIds[index]!, (net.get(accountIds[index]!) ?? 0) + line.amount),
  );
  for (const [account, change] of net) {
    if (!HOUSE_SIDES.includes(account.kind) && account.balance + change < 0) {
      return fail("Insufficient Balance", `insufficient ${account.kind} funds for ${formatMoney(-change)}`);
    }
  }

  // The entry, its lines and every balance change in one statement (the database's
  // post_journal_entry, which purchases call too).
  const inserted = await sql<{ entry_id: number }>`
    SELECT post_journal_entry(${entry.kind}, ${ctx.clock.now()}, ${entry.reference ?? null},
      ${JSON.stringify(entry.memo ?? {})}::jsonb, ${accountIds.map((row) => row.account_id)}::bigint[],
      ${lines.map((line) => line.amount)}::bigint[]) AS entry_id
  `.execute(ctx.db);
  const changes = [...net.entries()].filter(([, change]) => change !== 0);
  for (const [account, change] of changes) account.balance += change;
  return ok(inserted.rows[0]!.entry_id);
}

export type UserBalances = Record<UserAccountKind, Fen>;

export async function readUserBalances(ctx: DomainContext, userId: number): Promise<UserBalances> {
  const rows = await ctx.db
    .selectFrom("ledger_accounts")
    .select(["kind", "balance"])
    .where("user_id", "=", userId)
    .execute();
  return balancesOf(rows);
}

function balancesOf(rows: ReadonlyArray<{ kind: LedgerAccountKind; balance: Fen }>): UserBalances {
  const balances: UserBalances = { balance: 0, margin: 0, wallet: 0, escrow: 0 };
  for (const row of rows) balances[row.kind as UserAccountKind] = row.balance;
  return balances;
}

export type { LedgerAccountKind };
