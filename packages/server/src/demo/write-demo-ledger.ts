import { sql } from "kysely";
import { USER_ACCOUNT_KINDS } from "../domain/wallet/ledger.ts";
import { insertRows } from "./bulk-rows.ts";
import type { DemoWorld } from "./demo-world.ts";

/** The traders' accounts and the deposits that bring their money in, when the world begins. */
export async function writeDeposits(world: DemoWorld): Promise<void> {
  for (let start = 0; start < world.traders.length; start += world.batch) {
    const batch = world.traders.slice(start, start + world.batch);
    await insertRows(
      world.tx,
      "ledger_accounts",
      { account_id: "bigint", user_id: "bigint", kind: "text" },
      batch.flatMap((trader) =>
        USER_ACCOUNT_KINDS.map((kind) => ({
          account_id: trader.accounts[kind],
          user_id: trader.userId,
          kind,
        })),
      ),
    );
  }
  for (let start = 0; start < world.traders.length; start += world.batch) {
    for (const trader of world.traders.slice(start, start + world.batch)) {
      world.journal.entry("deposit", world.start, `user:${trader.userId}`, { account: "balance" }, [
        [trader.accounts.balance, trader.deposit],
        [world.systemAccounts.external, -trader.deposit],
      ]);
      trader.balance = trader.deposit;
    }
    // Entries are numbered in time order, whether written at once or in batches.
    await world.journal.flush();
  }
}

/** Every account's balance is the sum of its journal lines; one audit row says what was built. */
export async function writeDemoLedger(world: DemoWorld): Promise<void> {
  world.progress("ledger", 0, 1);
  await world.journal.flush();
  // Inserted before the lines that name them (see #writeDeposits); here they get their balances.
  for (let start = 0; start < world.traders.length; start += world.batch) {
    const accounts = world.traders
      .slice(start, start + world.batch)
      .map((trader) => ({ account_id: trader.accounts.balance, balance: trader.balance }));
    await sql`
      UPDATE ledger_accounts a SET balance = r.balance
      FROM jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb) AS r(account_id bigint, balance bigint)
      WHERE a.account_id = r.account_id
    `.execute(world.tx);
  }
  const deposits = world.traders.reduce((sum, trader) => sum + trader.deposit, 0);
  await sql`
    UPDATE ledger_accounts SET balance = balance + CASE kind WHEN 'fees' THEN ${world.feesTotal}::bigint
      ELSE ${-deposits}::bigint END
    WHERE user_id IS NULL AND kind IN ('fees', 'external')
  `.execute(world.tx);
  await world.tx
    .insertInto("audit_events")
    .values({
      created_at: world.now,
      actor: "system",
      action: "sandbox.demo.build",
      subject: null,
      details: JSON.stringify({
        seed: world.settings.seed,
        traders: world.settings.traders,
        listings: world.settings.listings,
        trades: world.trades,
        buy_orders: world.buyOrders,
        days: world.settings.days,
        users: world.traders.map((trader) => trader.userId),
      }),
      request_id: null,
    })
    .execute();
  world.progress("ledger", 1, 1);
}
