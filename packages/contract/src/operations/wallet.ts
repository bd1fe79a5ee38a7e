import { Type } from "typebox";
import { MoneyString } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** GET /api/market/developer/balance (docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token). */
export const getBalance = defineOperation({
  id: "getBalance",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "GET",
  path: "/api/market/developer/balance",
  access: "developer",
  envelope: "official",
  summary: "The caller's marketplace balance, buy-order funds, wallet balance and funds frozen in trades",
  tags: ["Account"],
  response: Type.Object({
    market_balance: MoneyString,
    margin_balance: MoneyString,
    wallet_balance: MoneyString,
    frozen_amount: MoneyString,
  }),
});

/** The caller's accounts, by the names `getBalance` answers their balances with. */
export const LEDGER_ACCOUNT_NAMES = [
  "market_balance",
  "margin_balance",
  "wallet_balance",
  "frozen_amount",
] as const;
export type LedgerAccountName = (typeof LEDGER_ACCOUNT_NAMES)[number];

/** Why money moved: the kind of a ledger entry (docs/design/money-and-ledger.md#money-and-the-ledger). */
export const LEDGER_ENTRY_KINDS = [
  "deposit",
  "withdrawal",
  "purchase_payment",
  "card_payment",
  "trade_payout",
  "trade_release",
  "trade_refund",
  "trade_rollback",
  "margin_expiry",
] as const;

/** A ledger entry id: a decimal string. */
export const LedgerEntryId = Type.String({ pattern: "^\\d{1,18}$", description: "a ledger entry id" });

/** One money movement as the caller sees it: the lines on their own accounts only. */
export const LedgerEntryRecord = Type.Object({
  id: LedgerEntryId,
  kind: Type.String({
    description: `why the money moved: ${LEDGER_ENTRY_KINDS.join(", ")} (the sandbox and operators may post others)`,
    examples: ["purchase_payment"],
  }),
  created_at: Type.Integer({ description: "Unix time in seconds, by the marketplace clock" }),
  sell_order_id: Type.Optional(Type.String({ description: "the listing a purchase paid for" })),
  trade_id: Type.Optional(Type.String({ description: "the trade the entry settles, refunds or reverses" })),
  buy_order_id: Type.Optional(Type.String({ description: "the buy order whose fill paid" })),
  lines: Type.Array(
    Type.Object({
      account: Type.Enum([...LEDGER_ACCOUNT_NAMES]),
      amount: Type.String({
        pattern: "^-?\\d+\\.\\d{2}$",
        description: "signed: + in, - out",
        examples: ["-12.50"],
      }),
      balance_after: MoneyString,
    }),
    { minItems: 1 },
  ),
});

/** GET /api/market/developer/balance/entries (docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token). */
export const listLedgerEntries = defineOperation({
  id: "listLedgerEntries",
  method: "GET",
  path: "/api/market/developer/balance/entries",
  access: "developer",
  envelope: "official",
  sessionToo: true,
  summary:
    "Every movement of the caller's money, newest first: why, when, and each account's balance after it",
  description:
    "Pages go back in time: pass the last `id` of a page as `before` for the next one while `has_more`. `account` keeps the entries that moved that account. Entries are never changed or removed; a reversal is a new entry.",
  tags: ["Account"],
  querystring: Type.Object({
    before: Type.Optional(LedgerEntryId),
    account: Type.Optional(Type.Enum([...LEDGER_ACCOUNT_NAMES])),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  }),
  response: Type.Object({
    items: Type.Array(LedgerEntryRecord),
    has_more: Type.Boolean(),
    total_count: Type.Integer({
      description: "how many entries the list holds from the newest on (with `account`, that account's)",
    }),
  }),
});
