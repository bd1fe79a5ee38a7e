import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.ts";

/**
 * The ledger invariants of docs/design/money-and-ledger.md#money-and-the-ledger, read straight from the tables. Tests call
 * `assertLedgerInvariants` after every step of the flows they drive; operators can run the same
 * check against a live database.

 */
export async function findLedgerViolations(db: Kysely<Database>): Promise<string[]> {
  const violations: string[] = [];

  const unbalancedEntries = await sql<{ entry_id: number; total: string }>`
    SELECT entry_id, SUM(amount)::text AS total FROM journal_lines GROUP BY entry_id HAVING SUM(amount) <> 0 LIMIT 10
  `.execute(db);
  for (const row of unbalancedEntries.rows)
    violations.push(`entry ${row.entry_id} lines sum to ${row.total}`);

  const thinEntries = await sql<{ entry_id: number }>`
    SELECT e.entry_id FROM journal_entries e LEFT JOIN journal_lines l ON l.entry_id = e.entry_id
    GROUP BY e.entry_id HAVING COUNT(l.line_id) < 2 LIMIT 10
  `.execute(db);
  for (const row of thinEntries.rows) violations.push(`entry ${row.entry_id} has fewer than two lines`);

  const drift = await sql<{ account_id: number; balance: number; lines: string }>`
    SELECT a.account_id, a.balance, COALESCE(SUM(l.amount), 0)::text AS lines
    FROM ledger_accounts a LEFT JOIN journal_lines l ON l.account_id = a.account_id
    GROUP BY a.account_id, a.balance HAVING a.balance <> COALESCE(SUM(l.amount), 0) LIMIT 10
  `.execute(db);
  for (const row of drift.rows) {
    violations.push(`account ${row.account_id} balance ${row.balance} differs from its lines ${row.lines}`);
  }

  const total = await sql<{
    total: string;
  }>`SELECT COALESCE(SUM(balance), 0)::text AS total FROM ledger_accounts`.execute(db);
  if (total.rows[0]?.total !== "0") violations.push(`account balances sum to ${total.rows[0]?.total}, not 0`);

  const negative = await db
    .selectFrom("ledger_accounts")
    .select(["account_id", "kind", "balance"])
    .where("kind", "not in", ["external", "adjustments"])
    .where("balance", "<", 0)
    .execute();
  for (const row of negative)
    violations.push(`${row.kind} account ${row.account_id} is negative: ${row.balance}`);

  // Each user's escrow holds exactly the prices of their purchases still in flight and the income
  // of their sales held under trade protection; the fee account exactly the fees of completed trades.
  const escrow = await sql<{ user_id: number; balance: number; expected: string }>`
    SELECT a.user_id, a.balance, COALESCE(t.total, 0)::text AS expected
    FROM ledger_accounts a
    LEFT JOIN (SELECT user_id, SUM(amount) AS total FROM (
                 SELECT buyer_id AS user_id, price AS amount FROM trades
                 WHERE state IN ('SELLER_TO_SEND_OFFER', 'TRADING')
                 UNION ALL
                 SELECT seller_id, price - fee FROM trades WHERE state = 'SUCCESS' AND released_at IS NULL
               ) owed GROUP BY user_id) t ON t.user_id = a.user_id
    WHERE a.kind = 'escrow' AND a.balance <> COALESCE(t.total, 0)
    LIMIT 10
  `.execute(db);
  for (const row of escrow.rows) {
    violations.push(
      `user ${row.user_id} escrow ${row.balance} differs from in-flight purchases and held sales ${row.expected}`,
    );
  }
  const fees = await sql<{ balance: number; expected: string }>`
    SELECT a.balance, (SELECT COALESCE(SUM(fee), 0) FROM trades WHERE state = 'SUCCESS')::text AS expected
    FROM ledger_accounts a WHERE a.kind = 'fees' AND a.user_id IS NULL
  `.execute(db);
  const feeRow = fees.rows[0];
  if (feeRow && String(feeRow.balance) !== feeRow.expected) {
    violations.push(`fees account ${feeRow.balance} differs from completed trades' fees ${feeRow.expected}`);
  }
  // Each trade's refunded amount is what its refund entries paid the buyer (back-office-money.md).
  const refunds = await sql<{ trade_id: number; refunded: number; paid: string }>`
    SELECT t.trade_id, t.refunded, COALESCE(r.paid, 0)::text AS paid
    FROM trades t
    LEFT JOIN (SELECT e.reference, SUM(l.amount) AS paid
               FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.entry_id
               JOIN ledger_accounts a ON a.account_id = l.account_id AND a.kind = 'balance'
               WHERE e.kind = 'refund' AND l.amount > 0 GROUP BY e.reference) r
      ON r.reference = 'trade:' || t.trade_id
    WHERE t.refunded <> COALESCE(r.paid, 0)
    LIMIT 10
  `.execute(db);
  for (const row of refunds.rows)
    violations.push(`trade ${row.trade_id} refunded ${row.refunded} but its refund entries paid ${row.paid}`);
  // Each buy order's counters match its trades: frozen = fills in flight (count and prices),
  // real = delivered fills; a complete order has delivered every unit.
  const orders = await sql<{ buy_order_id: number; problem: string }>`
    SELECT o.buy_order_id,
      format('frozen %s/%s real %s state %s, trades: in flight %s/%s, delivered %s',
        o.frozen_num, o.frozen_amount, o.real_num, o.state,
        COALESCE(t.in_flight, 0), COALESCE(t.in_flight_amount, 0), COALESCE(t.delivered, 0)) AS problem
    FROM buy_orders o
    LEFT JOIN (SELECT buy_order_id,
                 COUNT(*) FILTER (WHERE state IN ('SELLER_TO_SEND_OFFER', 'TRADING')) AS in_flight,
                 SUM(price) FILTER (WHERE state IN ('SELLER_TO_SEND_OFFER', 'TRADING')) AS in_flight_amount,
                 COUNT(*) FILTER (WHERE state = 'SUCCESS') AS delivered
               FROM trades WHERE buy_order_id IS NOT NULL GROUP BY buy_order_id) t
      ON t.buy_order_id = o.buy_order_id
    WHERE o.frozen_num <> COALESCE(t.in_flight, 0)
       OR o.frozen_amount <> COALESCE(t.in_flight_amount, 0)
       OR o.real_num <> COALESCE(t.delivered, 0)
       OR (o.state = 'success') <> (o.real_num = o.num AND o.state <> 'failed')
    LIMIT 10
  `.execute(db);
  for (const row of orders.rows) violations.push(`buy order ${row.buy_order_id}: ${row.problem}`);
  return violations;
}

export async function assertLedgerInvariants(db: Kysely<Database>): Promise<void> {
  const violations = await findLedgerViolations(db);
  if (violations.length > 0) throw new Error(`ledger invariants violated:\n- ${violations.join("\n- ")}`);
}
