import { Type } from "typebox";
import { BuyOrderStatusName, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";

const BuyOrderStatusSettings = Type.Object({
  buy_order_auto_offline: Type.Boolean(),
  buy_order_status: BuyOrderStatusName,
});

/** GET /api/market/developer/buy_order/status (reference: Buy orders). */
export const getBuyOrderStatus = defineOperation({
  id: "getBuyOrderStatus",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "GET",
  path: "/api/market/developer/buy_order/status",
  access: "developer",
  envelope: "official",
  sessionToo: true,
  summary: "Buy-order status and automatic-offline settings",
  tags: ["Buy orders"],
  response: BuyOrderStatusSettings,
});

/** PUT /api/market/developer/buy_order/status (docs/design/website-buying-routes.md#the-websites-buy-order-routes). */
export const setBuyOrderStatus = defineOperation({
  id: "setBuyOrderStatus",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "PUT",
  path: "/api/market/developer/buy_order/status",
  access: "developer",
  envelope: "official",
  sessionToo: true,
  summary: "Turns the caller's buy orders online or offline and sets automatic offline after a fill",
  tags: ["Buy orders"],
  body: StrictObject({
    buy_order_status: Type.Optional(BuyOrderStatusName),
    buy_order_auto_offline: Type.Optional(Type.Boolean()),
  }),
  response: BuyOrderStatusSettings,
});
