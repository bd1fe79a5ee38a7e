import { Type } from "typebox";
import { IdString, InternalOk, StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { WebGoodsInfo } from "./web-shapes.ts";
import { WebBillOrder } from "./web-buying.ts";
import { ItemToTrade } from "./web-probes.ts";

/**
 * The website's delivery routes (docs/design/website-buying-routes.md#the-websites-delivery-routes): the seller's list of sales to deliver, the offers either party sends, and the
 * seller's choice that buyers send them, as auto-delivery bots of the real service call them.
 */

/** Fields real tools send that mean nothing here (the page's own token echo, app versions). */
const IgnoredText = Type.Optional(Text({ maxLength: 100 }));

/**
 * The encrypted platform session the real service's app uploads with an offer request. Accepted
 * and not read: offers here are sent with the cookies uploaded through platform/cookie.
 */
const SealedSession = Type.Optional(
  Text({
    maxLength: 20_000,
    description: "accepted and not read: the cookies of platform/cookie are used",
  }),
);

const Steamid = Type.Optional(
  Type.String({ pattern: "^\\d{1,20}$", description: "the sending account; accepted and not read" }),
);

const BillOrders = Type.Array(IdString, { minItems: 1, maxItems: 50 });

/** A sale to deliver: the bill order, the items to give and where they go. */
export const SaleToDeliver = Type.Object({
  ...WebBillOrder.properties,
  items_to_trade: Type.Array(ItemToTrade),
  buyer_trade_url: Type.String({ description: "the buyer's trade URL, where the seller's offer goes" }),
});

export const getSalesToDeliver = defineOperation({
  id: "getSalesToDeliver",
  method: "GET",
  path: "/api/market/sell_order/to_deliver",
  access: "session",
  envelope: "internal",
  summary: "The caller's sales still to deliver, oldest first, with the offer id once an offer is out",
  tags: ["Website selling"],
  querystring: Type.Object({
    game: Type.Enum(["csgo", "cs2", "dota2"], {
      description: "dota2 answers an empty list: no Dota 2 trades exist",
    }),
    appid: Type.Optional(
      Type.Integer({ enum: [730, 570], description: "730 with csgo/cs2, 570 with dota2" }),
    ),
  }),
  response: InternalOk({
    items: Type.Array(SaleToDeliver),
    goods_infos: Type.Record(Type.String(), WebGoodsInfo),
  }),
});

/** Each order's answer: `OK`, or why its offer was not sent. */
const PerOrderAnswer = Type.Record(Type.String(), Type.String(), {
  description: "per bill order id: OK or the reason its offer was not sent",
});

export const sellerSendOffer = defineOperation({
  id: "sellerSendOffer",
  method: "POST",
  path: "/api/market/manual_plus/seller_send_offer",
  access: "session",
  envelope: "internal",
  summary: "The seller sends the trade offers of sales to deliver (each order on its own)",
  tags: ["Website selling"],
  body: StrictObject({
    bill_orders: BillOrders,
    seller_info: SealedSession,
    steamid: Steamid,
    last_login_time: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Text({ maxLength: 40 })]),
    ),
    game: Type.Optional(Type.Enum(["csgo", "cs2"])),
    csrf_token: IgnoredText,
  }),
  response: Type.Object({ code: Type.Literal("OK"), data: PerOrderAnswer, msg: Type.Null() }),
});

export const buyerSendOffer = defineOperation({
  id: "buyerSendOffer",
  method: "POST",
  path: "/api/market/manual_plus/buyer_send_offer",
  access: "session",
  envelope: "internal",
  summary:
    "The buyer sends the trade offers of purchases whose offer is theirs: each asks the seller for the item",
  tags: ["Website buying"],
  body: StrictObject({
    bill_orders: BillOrders,
    buyer_info: SealedSession,
    steamid: Steamid,
    game: Type.Optional(Type.Enum(["csgo", "cs2"])),
    buff_android_webview_version: IgnoredText,
    csrf_token: IgnoredText,
  }),
  response: Type.Object({ code: Type.Literal("OK"), data: PerOrderAnswer, msg: Type.Null() }),
});

export const setForceBuyerSendOffer = defineOperation({
  id: "setForceBuyerSendOffer",
  method: "POST",
  path: "/account/api/prefer/force_buyer_send_offer",
  access: "session",
  envelope: "internal",
  summary:
    "The seller asks (or stops asking) buyers to send the trade offers of the sales opened from now on",
  tags: ["Website selling"],
  body: StrictObject({
    force_buyer_send_offer: Type.Union([Type.Boolean(), Type.Enum(["true", "false"])], {
      description: 'true or false; real tools send the JSON string "true"',
    }),
  }),
  response: InternalOk({ force_buyer_send_offer: Type.Boolean() }),
});
