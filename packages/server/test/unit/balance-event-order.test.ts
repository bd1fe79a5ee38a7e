import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { formatEvents, type OutboxRow } from "../../src/domain/events/format-events.ts";

let seq = 0;
const balance = (txid: string, userId: number, balance: number): OutboxRow => ({
  seq: ++seq,
  txid,
  type: "balance.changed",
  user_id: userId,
  goods_id: null,
  subject: { balance },
});
const cookie = (txid: string, userId: number): OutboxRow => ({
  seq: ++seq,
  txid,
  type: "platform.cookie_expired",
  user_id: userId,
  goods_id: null,
  subject: { platformid: "7656" },
});

// Only balance and cookie rows: nothing is read from a database.
const ctx = {} as DomainContext;
const told = async (rows: OutboxRow[]) =>
  (await formatEvents(ctx, rows)).map(
    (event) => `${event.type} ${event.user_id} ${JSON.stringify(event.data)}`,
  );

/** The events of one transaction's balance changes do not depend on the order rows were updated in. */
describe("balance events in user order", () => {
  test("one statement's balance changes give the same events whichever order the rows were updated in", async () => {
    const first = await told([
      balance("1", 9, 100),
      balance("1", 4, 200),
      cookie("1", 9),
      balance("1", 4, 150),
    ]);
    const second = await told([
      balance("1", 4, 200),
      balance("1", 9, 100),
      cookie("1", 9),
      balance("1", 4, 150),
    ]);
    assert.deepEqual(first, second);
    assert.deepEqual(first, [
      'balance.changed 9 {"market_balance":"1.00","margin_balance":"0.00","wallet_balance":"0.00","frozen_amount":"0.00"}',
      'platform.cookie_expired 9 {"platformid":"7656"}',
      'balance.changed 4 {"market_balance":"1.50","margin_balance":"0.00","wallet_balance":"0.00","frozen_amount":"0.00"}',
    ]);
  });

  test("other transactions' rows between them leave each transaction's runs as they are", async () => {
    const events = await told([
      balance("1", 9, 100),
      balance("2", 1, 300),
      balance("1", 4, 200),
      cookie("2", 1),
    ]);
    assert.deepEqual(
      events.map((event) => event.split(" {")[0]),
      ["balance.changed 4", "balance.changed 1", "balance.changed 9", "platform.cookie_expired 1"],
    );
  });
});
