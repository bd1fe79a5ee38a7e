import { Type } from "typebox";
import { MoneyString } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** GET /api/market/developer/balance (docs/design.md section 8). */
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
