import { formatMoney, type LedgerAccountName } from "@skinmarket/contract";
import { sql } from "kysely";
import type { UserAccountKind } from "../../storage/schema.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

/** The wire name of each of a user's accounts, as `getBalance` answers its balance. */
const ACCOUNT_NAME: Record<UserAccountKind, LedgerAccountName> = {
  balance: "market_balance",
  margin: "margin_balance",
  wallet: "wallet_balance",
  escrow: "frozen_amount",
};
const ACCOUNT_KIND = Object.fromEntries(
  Object.entries(ACCOUNT_NAME).map(([kind, name]) => [name, kind]),
) as Record<LedgerAccountName, UserAccountKind>;

/** What an entry's `reference` names, as the fields of the record (`trade:12` is `trade_id`). */
const REFERENCE_FIELDS: Record<string, "trade_id" | "sell_order_id" | "buy_order_id"> = {
  trade: "trade_id",
  listing: "sell_order_id",
  buy_order: "buy_order_id",
};

export interface LedgerEntryView {
  id: string;
  kind: string;
  created_at: number;
  sell_order_id?: string;
  trade_id?: string;
  buy_order_id?: string;
  lines: { account: LedgerAccountName; amount: string; balance_after: string }[];
}

interface EntryLineRow {
  entry_id: number;
  kind: string;
  created_at: Date;
  reference: string | null;
  account: UserAccountKind;
  amount: number;
  balance_after: number;
}

/**
 * The caller's money movements, newest first (GET /api/market/developer/balance/entries): each
 * journal entry that moved one of their accounts, with the lines on their own accounts (the other
 * side, a seller or the fee account, is not theirs to see) and each account's balance after it.
 * One statement, so the page and the balances after are one snapshot: the page is the newest
 * `limit` entries among each account's newest lines (index `journal_lines_account_entry_idx`),
 * and a balance after an entry is the balance now less the account's lines after it. `total_count`
 * counts every entry of the list (the website's "n–m of N"), whatever `before` says.
 */
export async function listLedgerEntries(
  ctx: DomainContext,
  query: { before?: string; account?: LedgerAccountName; limit: number },
): Promise<Result<{ items: LedgerEntryView[]; has_more: boolean; total_count: number }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const before = query.before ?? "9223372036854775807";
  const take = query.limit + 1;
  const accountFilter = query.account ? sql`AND kind = ${ACCOUNT_KIND[query.account]}` : sql``;
  const counted = sql<{ total: string }>`
    SELECT count(DISTINCT line.entry_id) AS total
    FROM ledger_accounts AS account
    JOIN journal_lines AS line ON line.account_id = account.account_id
    WHERE account.user_id = ${userId} ${accountFilter}`.execute(ctx.db);
  const rows = await sql<EntryLineRow>`
    WITH page AS (
      SELECT DISTINCT latest.entry_id
      FROM ledger_accounts AS account
      CROSS JOIN LATERAL (
        SELECT line.entry_id FROM journal_lines AS line
        WHERE line.account_id = account.account_id AND line.entry_id < ${before}::bigint
        ORDER BY line.entry_id DESC LIMIT ${take}
      ) AS latest
      WHERE account.user_id = ${userId} ${accountFilter}
      ORDER BY latest.entry_id DESC
      LIMIT ${take}
    )
    SELECT entry.entry_id, entry.kind, entry.created_at, entry.reference, account.kind AS account,
      line.amount,
      (account.balance - COALESCE((
        SELECT sum(later.amount) FROM journal_lines AS later
        WHERE later.account_id = line.account_id AND later.entry_id > line.entry_id), 0))::bigint
        AS balance_after
    FROM page
    JOIN journal_entries AS entry ON entry.entry_id = page.entry_id
    JOIN journal_lines AS line ON line.entry_id = page.entry_id
    JOIN ledger_accounts AS account ON account.account_id = line.account_id AND account.user_id = ${userId}
    ORDER BY entry.entry_id DESC,
      array_position(ARRAY['balance', 'margin', 'wallet', 'escrow'], account.kind::text)`.execute(ctx.db);

  // Lines come in the order `getBalance` names the accounts in.
  const entries = new Map<number, LedgerEntryView>();
  for (const row of rows.rows) {
    let entry = entries.get(Number(row.entry_id));
    if (!entry) {
      entry = {
        id: String(row.entry_id),
        kind: row.kind,
        created_at: toUnixSeconds(new Date(row.created_at)),
        ...referenceFields(row.reference),
        lines: [],
      };
      entries.set(Number(row.entry_id), entry);
    }
    entry.lines.push({
      account: ACCOUNT_NAME[row.account],
      amount: formatMoney(Number(row.amount)),
      balance_after: formatMoney(Number(row.balance_after)),
    });
  }
  const items = [...entries.values()];
  const total = Number((await counted).rows[0]?.total ?? 0);
  return ok({
    items: items.slice(0, query.limit),
    has_more: items.length > query.limit,
    total_count: total,
  });
}

function referenceFields(
  reference: string | null,
): Partial<Record<"trade_id" | "sell_order_id" | "buy_order_id", string>> {
  const [type, id] = reference?.split(":", 2) ?? [];
  const field = type === undefined ? undefined : REFERENCE_FIELDS[type];
  return field && id ? { [field]: id } : {};
}
