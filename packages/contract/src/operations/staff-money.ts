import { Type } from "typebox";
import { IdString, InternalOk, MoneyInput, MoneyString, StrictObject, Text, UnixSeconds } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { StaffReason } from "./staff.ts";

/**
 * What staff read of users and the money they move by hand (docs/design/back-office-money.md):
 * finding a user, a user's page, and adjustments of a balance, each a journal entry recorded with
 * its staff action.
 */
const ops = { envelope: "internal", tags: ["Back office"] } as const;

const FoundUser = Type.Object({
  user_id: IdString,
  nickname: Type.String(),
  created_at: UnixSeconds,
  closed_at: Type.Union([UnixSeconds, Type.Null()]),
  platform_ids: Type.Array(Type.String(), { description: "the platform accounts bound to the user" }),
});

export const staffFindUsers = defineOperation({
  ...ops,
  id: "staffFindUsers",
  method: "GET",
  path: "/ops/api/users",
  access: "staff",
  summary: "Finds users by nickname (from its start), user id or bound platform id (every role)",
  description:
    "At most 20 users, by id. A query of digits matches ids and platform ids as well as nicknames.",
  querystring: StrictObject({
    q: Text({ minLength: 1, maxLength: 64, description: "a nickname's start, a user id or a platform id" }),
  }),
  response: InternalOk({ items: Type.Array(FoundUser) }),
});

const Balances = Type.Object({
  balance: MoneyString,
  margin: MoneyString,
  wallet: MoneyString,
  escrow: MoneyString,
});

export const staffGetUser = defineOperation({
  ...ops,
  id: "staffGetUser",
  method: "GET",
  path: "/ops/api/users/:user_id",
  access: "staff",
  summary:
    "A user's page for staff: balances, recent trades, sign-ins and staff actions on them (every role)",
  description: "Each list is the 20 most recent, newest first.",
  params: StrictObject({ user_id: IdString }),
  response: InternalOk({
    user: FoundUser,
    balances: Balances,
    trades: Type.Array(
      Type.Object({
        trade_id: IdString,
        side: Type.Union([Type.Literal("buyer"), Type.Literal("seller")]),
        goods_id: Type.Integer(),
        price: MoneyString,
        state: Type.String(),
        created_at: UnixSeconds,
      }),
    ),
    sign_ins: Type.Array(
      Type.Object({
        signed_in_at: UnixSeconds,
        ip: Type.String(),
        user_agent: Type.String(),
        method: Type.String(),
      }),
    ),
    staff_actions: Type.Array(
      Type.Object({
        action_id: IdString,
        acted_at: UnixSeconds,
        operation: Type.String(),
        reason: Type.String(),
        staff_email: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  }),
});

export const staffAdjustBalance = defineOperation({
  ...ops,
  id: "staffAdjustBalance",
  method: "POST",
  path: "/ops/api/users/:user_id/adjustments",
  access: "staff",
  summary: "Credits or debits a user's balance by hand against the house's adjustments account",
  description:
    "`amount` is positive, in yuan; `direction` says which way. Support gives credits only, up to `SUPPORT_CREDIT_LIMIT`; finance either way up to `FINANCE_ADJUST_LIMIT`; admins without a limit; above its limit a role is refused (Access Denied naming `amount`). A debit never overdraws the balance (Insufficient Balance).",
  params: StrictObject({ user_id: IdString }),
  body: StrictObject({
    direction: Type.Union([Type.Literal("credit"), Type.Literal("debit")], {
      description: "credit or debit",
    }),
    amount: MoneyInput,
    reason: StaffReason,
  }),
  response: InternalOk({
    user_id: IdString,
    entry_id: IdString,
    direction: Type.Union([Type.Literal("credit"), Type.Literal("debit")]),
    amount: MoneyString,
    balance_before: MoneyString,
    balance_after: MoneyString,
  }),
});

export const staffFreezeAccount = defineOperation({
  ...ops,
  id: "staffFreezeAccount",
  method: "POST",
  path: "/ops/api/users/:user_id/freeze",
  access: "staff",
  summary: "Freezes or unfreezes a user's trading and/or withdrawals (risk, admin)",
  description:
    "`true` freezes, `false` unfreezes, an absent field stays as it is. A frozen account's purchases, listings, buy orders and supplies (trading) or withdrawals are refused with Access Denied naming `trading_frozen` or `withdrawals_frozen`; the user's account info shows the freezes.",
  params: StrictObject({ user_id: IdString }),
  body: StrictObject({
    trading: Type.Optional(Type.Boolean()),
    withdrawals: Type.Optional(Type.Boolean()),
    reason: StaffReason,
  }),
  response: InternalOk({ user_id: IdString, trading: Type.Boolean(), withdrawals: Type.Boolean() }),
});

export const staffRefundTrade = defineOperation({
  ...ops,
  id: "staffRefundTrade",
  method: "POST",
  path: "/ops/api/trades/:trade_id/refund",
  access: "staff",
  summary: "Refunds a completed trade to the buyer's balance, in full or in part (finance, admin)",
  description:
    "Only a completed trade whose seller has been paid (past trade protection). `amount` in yuan, absent: all that is left to refund. `from: seller` takes up to what the sale brought the seller (price less fee) from the seller's balance and the rest from the house; `from: house` takes all from the house's adjustments account. The refunds of a trade never exceed its price; finance refunds at most `FINANCE_ADJUST_LIMIT` at once.",
  params: StrictObject({ trade_id: IdString }),
  body: StrictObject({
    amount: Type.Optional(MoneyInput),
    from: Type.Union([Type.Literal("seller"), Type.Literal("house")], { description: "seller or house" }),
    reason: StaffReason,
  }),
  response: InternalOk({
    trade_id: IdString,
    entry_id: IdString,
    amount: MoneyString,
    from_seller: MoneyString,
    from_house: MoneyString,
    refunded: MoneyString,
  }),
});
