import { Type } from "typebox";
import {
  AccessLevelName,
  BuyOrderStatusName,
  IdString,
  MoneyInput,
  MoneyString,
  Nickname,
  StrictObject,
  Text,
  UnixSeconds,
} from "../common.ts";
import { defineOperation } from "../operation.ts";

/** The sandbox API (docs/design/platform-and-sandbox.md#game-platform-and-the-sandbox): building test worlds, guarded by the admin token. */
const sandbox = { access: "sandbox_admin", envelope: "sandbox", tags: ["Sandbox"] } as const;

const UserIdParams = StrictObject({ user_id: IdString });

const IssuedToken = {
  token: Type.String({ description: "The bearer token; shown only in this answer" }),
  token_id: IdString,
};

export const SandboxBalances = Type.Object({
  balance: MoneyString,
  margin: MoneyString,
  wallet: MoneyString,
  escrow: MoneyString,
});

export const sandboxCreateUser = defineOperation({
  ...sandbox,
  id: "sandboxCreateUser",
  method: "POST",
  path: "/sandbox/users",
  summary: "Creates a marketplace user with a password and a first API token",
  body: StrictObject({
    nickname: Type.Optional(Nickname),
    access_level: Type.Optional(AccessLevelName),
    password: Type.Optional(Text({ minLength: 8, maxLength: 256 })),
  }),
  response: Type.Object({
    user_id: IdString,
    nickname: Type.String(),
    access_level: AccessLevelName,
    password: Type.String(),
    ...IssuedToken,
  }),
});

export const sandboxCreateToken = defineOperation({
  ...sandbox,
  id: "sandboxCreateToken",
  method: "POST",
  path: "/sandbox/users/:user_id/tokens",
  summary: "Issues another API token for a user",
  params: UserIdParams,
  response: Type.Object(IssuedToken),
});

export const sandboxRevokeToken = defineOperation({
  ...sandbox,
  id: "sandboxRevokeToken",
  method: "DELETE",
  path: "/sandbox/tokens/:token_id",
  summary: "Revokes an API token; it answers Unauthorized from then on",
  params: StrictObject({ token_id: IdString }),
  response: Type.Object({ token_id: IdString, revoked_at: UnixSeconds }),
});

export const sandboxResetTokenLimits = defineOperation({
  ...sandbox,
  id: "sandboxResetTokenLimits",
  method: "POST",
  path: "/sandbox/tokens/:token_id/limits/reset",
  summary: "Forgets a token's counts against every rate limit and daily allowance",
  params: StrictObject({ token_id: IdString }),
  response: Type.Object({ token_id: IdString, reset: Type.Literal(true) }),
});

/** What a deposit or a withdrawal moves: a positive amount, in or out of one account. */
const FundsBody = StrictObject({
  account: Type.Enum(["balance", "margin", "wallet"]),
  amount: MoneyInput,
});

export const sandboxFundAccount = defineOperation({
  ...sandbox,
  id: "sandboxFundAccount",
  method: "POST",
  path: "/sandbox/users/:user_id/funds",
  summary: "Deposits into a user's account from outside the marketplace",
  description:
    "`amount` is a positive amount in yuan; a negative or zero amount is refused (Invalid Argument naming `amount`). Money leaves an account only through `sandboxWithdrawFunds`.",
  params: UserIdParams,
  body: FundsBody,
  response: SandboxBalances,
});

export const sandboxWithdrawFunds = defineOperation({
  ...sandbox,
  id: "sandboxWithdrawFunds",
  method: "POST",
  path: "/sandbox/users/:user_id/withdrawals",
  summary: "Withdraws from a user's account to outside the marketplace",
  description:
    "`amount` is a positive amount in yuan; more than the account holds is refused with Insufficient Balance and changes nothing.",
  params: UserIdParams,
  body: FundsBody,
  response: SandboxBalances,
});

export const sandboxGetBalances = defineOperation({
  ...sandbox,
  id: "sandboxGetBalances",
  method: "GET",
  path: "/sandbox/users/:user_id/balances",
  summary: "A user's balances",
  params: UserIdParams,
  response: SandboxBalances,
});

export const sandboxUpdateUserSettings = defineOperation({
  ...sandbox,
  id: "sandboxUpdateUserSettings",
  method: "PUT",
  path: "/sandbox/users/:user_id/settings",
  summary: "Changes a user's buy-order status, automatic offline, access level or sandbox card",
  params: UserIdParams,
  body: StrictObject({
    buy_order_status: Type.Optional(BuyOrderStatusName),
    buy_order_auto_offline: Type.Optional(Type.Boolean()),
    access_level: Type.Optional(AccessLevelName),
    card_declines: Type.Optional(
      Type.Boolean({ description: "the sandbox card network declines this user's card payments" }),
    ),
  }),
  response: Type.Object({
    user_id: IdString,
    access_level: AccessLevelName,
    buy_order_status: BuyOrderStatusName,
    buy_order_auto_offline: Type.Boolean(),
    card_declines: Type.Boolean(),
  }),
});

const ClockAnswer = Type.Object({ now: UnixSeconds, offset_seconds: Type.Integer() });

export const sandboxGetClock = defineOperation({
  ...sandbox,
  id: "sandboxGetClock",
  method: "GET",
  path: "/sandbox/clock",
  summary: "The marketplace clock that every timeout, cooldown and expiry follows",
  response: ClockAnswer,
});

export const sandboxAdvanceClock = defineOperation({
  ...sandbox,
  id: "sandboxAdvanceClock",
  method: "POST",
  path: "/sandbox/clock/advance",
  summary: "Moves the marketplace clock forward",
  body: StrictObject({ seconds: Type.Integer({ minimum: 1, maximum: 10 * 365 * 24 * 3600 }) }),
  response: ClockAnswer,
});

export const sandboxRunJobs = defineOperation({
  ...sandbox,
  id: "sandboxRunJobs",
  method: "POST",
  path: "/sandbox/jobs/run",
  summary: "Runs every due job (timeouts, expiries, sweeps) now",
  response: Type.Object({
    jobs: Type.Array(Type.Object({ name: Type.String(), processed: Type.Integer({ minimum: 0 }) })),
  }),
});

export const sandboxReset = defineOperation({
  ...sandbox,
  id: "sandboxReset",
  method: "POST",
  path: "/sandbox/reset",
  summary: "Empties the world (users, tokens, money, audit) except the catalog, and resets the clock",
  response: Type.Object({ reset: Type.Literal(true) }),
});

export const sandboxRecomputeLiquidityRanks = defineOperation({
  ...sandbox,
  id: "sandboxRecomputeLiquidityRanks",
  method: "POST",
  path: "/sandbox/market/liquidity_ranks",
  summary: "Recomputes every goods' liquidity rank from the last 30 days' trades now",
  response: Type.Object({
    computed_at: Type.Integer({ minimum: 0, description: "Unix time in seconds" }),
    ranked_goods: Type.Integer({ minimum: 0, description: "goods with at least one trade in the window" }),
  }),
});
