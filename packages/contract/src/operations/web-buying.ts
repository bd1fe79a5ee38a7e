import { Type } from "typebox";
import {
  Cs2Game,
  GoodsId,
  IdString,
  InternalOk,
  MoneyInput,
  MoneyString,
  PageNum,
  PageSize,
  RecordGame,
  StrictObject,
  Text,
  UnixSeconds,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { WEB_PAY_METHOD_CODES } from "../pay-methods.ts";
import { AssetInfo } from "../records.ts";
import { WebGoodsInfo } from "./web-shapes.ts";

/**
 * The website's buying routes (docs/design/website-buying-routes.md#the-websites-buying-routes): the preview of a purchase, buying one listing, and the bill orders that follow, as
 * real tools of the real service call them with a signed-in session.
 */

const PayMethodCode = Type.Integer({
  enum: Object.values(WEB_PAY_METHOD_CODES),
  description: "3 balance, 1 bank card, 101 buy-order funds, 102 wallet",
});

/** A 0/1 flag as the website sends it. */
const Flag = Type.Integer({ enum: [0, 1] });

/** Fields real tools send that mean nothing here (coupons, the page's own token echo). */
const IgnoredText = Type.Optional(Text({ maxLength: 100 }));

/** A way of paying as `goods/buy/preview` lists it. */
export const WebPayMethodEntry = Type.Object({
  value: Type.Integer({ description: "the code goods/buy takes as pay_method" }),
  name: Type.String({ description: "our account: balance, margin, bankcard, wallet" }),
  text: Type.String(),
  balance: MoneyString,
  enough: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()], { description: "null when this way can pay" }),
  price_with_pay_fee: MoneyString,
});

/** A trade as the website's bill order (the real service's bill order record, as tools read it). */
export const WebBillOrder = Type.Object({
  id: Type.String(),
  appid: Type.Integer(),
  game: RecordGame,
  goods_id: Type.Integer(),
  sell_order_id: Type.String(),
  buyer_id: Type.String(),
  seller_id: Type.String(),
  price: MoneyString,
  price_with_pay_fee: MoneyString,
  original_price: Type.Null(),
  fee: MoneyString,
  income: MoneyString,
  pay_method: Type.Integer(),
  pay_method_text: Type.String(),
  buyer_pay_time: Type.Integer(),
  pay_expire_timeout: Type.Integer(),
  state: Type.Enum(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING", "SUCCESS", "FAIL"]),
  state_text: Type.String(),
  error_text: Type.Union([Type.String(), Type.Null()]),
  type: Type.Integer(),
  mode: Type.Integer(),
  is_seller_asked_to_send_offer: Type.Boolean(),
  has_sent_offer: Type.Boolean(),
  tradeofferid: Type.Union([Type.String(), Type.Null()]),
  trade_offer_url: Type.Null(),
  trade_offer_trace_url: Type.Null(),
  deliver_expire_timeout: Type.Integer(),
  buyer_send_offer_timeout: Type.Integer(),
  buyer_cancel_timeout: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  seller_can_cancel: Type.Boolean(),
  has_bargain: Type.Boolean(),
  buyer_cookie_invalid: Type.Boolean(),
  seller_cookie_invalid: Type.Boolean(),
  transact_time: Type.Union([UnixSeconds, Type.Null()]),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  asset_info: Type.Object({
    ...AssetInfo.properties,
    appid: Type.Integer(),
    action_link: Type.String(),
    has_tradable_cooldown: Type.Boolean(),
    tradable_cooldown_text: Type.String(),
    tradable_unfrozen_time: Type.Union([UnixSeconds, Type.Null()]),
  }),
});

export const previewGoodsBuy = defineOperation({
  id: "previewGoodsBuy",
  method: "GET",
  path: "/api/market/goods/buy/preview",
  access: "session",
  envelope: "internal",
  summary: "What buying one listing costs and which of the buyer's ways of paying can pay for it",
  tags: ["Website buying"],
  querystring: Type.Object({
    game: Cs2Game,
    sell_order_id: IdString,
    goods_id: GoodsId,
    price: MoneyInput,
    allow_tradable_cooldown: Type.Optional(Flag),
    cdkey_id: IgnoredText,
  }),
  response: InternalOk({
    sell_order_id: Type.String(),
    goods_id: Type.Integer(),
    price: MoneyString,
    pay_methods: Type.Array(WebPayMethodEntry),
  }),
});

export const buyGoods = defineOperation({
  id: "buyGoods",
  method: "POST",
  path: "/api/market/goods/buy",
  access: "session",
  envelope: "internal",
  summary: "Buys one listing at the price the buyer saw; answers the bill order (data.id)",
  tags: ["Website buying"],
  body: StrictObject({
    game: Cs2Game,
    goods_id: GoodsId,
    sell_order_id: IdString,
    price: MoneyInput,
    pay_method: PayMethodCode,
    allow_tradable_cooldown: Type.Optional(Flag),
    hide_nickname: Type.Optional(Flag),
    token: IgnoredText,
    cdkey_id: IgnoredText,
    csrf_token: IgnoredText,
  }),
  response: InternalOk(WebBillOrder.properties),
});

export const getBillOrderBatch = defineOperation({
  id: "getBillOrderBatch",
  method: "GET",
  path: "/api/market/bill_order/batch/info",
  access: "session",
  envelope: "internal",
  summary: "The bill orders among the given ids that the caller bought or sold",
  tags: ["Website buying"],
  querystring: Type.Object({
    bill_orders: Type.String({
      pattern: "^[1-9]\\d{0,14}(,[1-9]\\d{0,14}){0,49}$",
      description: "1-50 bill order ids separated by commas",
    }),
    game: Type.Optional(Cs2Game),
  }),
  response: InternalOk({ items: Type.Array(WebBillOrder) }),
});

export const askSellerToSendOffer = defineOperation({
  id: "askSellerToSendOffer",
  method: "POST",
  path: "/api/market/bill_order/ask_seller_to_send_offer",
  access: "session",
  envelope: "internal",
  summary:
    "The seller sends the trade offers of the caller's purchases (refused where the seller asks buyers to)",
  tags: ["Website buying"],
  body: StrictObject({
    bill_orders: Type.Array(IdString, { minItems: 1, maxItems: 50 }),
    game: Cs2Game,
    csrf_token: IgnoredText,
  }),
  response: InternalOk({}),
});

/**
 * POST /api/market/bill_order/deliver/cancel: the buyer cancels a purchase the seller has not
 * delivered 30 minutes after it (real tools send `{game, bill_order_id}`), refunded at once.
 */
export const cancelWebPurchase = defineOperation({
  id: "cancelWebPurchase",
  method: "POST",
  path: "/api/market/bill_order/deliver/cancel",
  access: "session",
  envelope: "internal",
  summary: "Cancels the caller's purchase that waited 30 minutes for the seller's offer, refunding it",
  tags: ["Website buying"],
  body: StrictObject({ bill_order_id: IdString, game: Cs2Game, csrf_token: IgnoredText }),
  response: InternalOk({}),
});

export const notifyBuyerToSendOffer = defineOperation({
  id: "notifyBuyerToSendOffer",
  method: "POST",
  path: "/api/market/bill_order/notify_buyer_to_send_offer",
  access: "session",
  envelope: "internal",
  summary: "The buyer takes on sending the trade offer of a purchase (then manual_plus/buyer_send_offer)",
  tags: ["Website buying"],
  body: StrictObject({ bill_order_id: IdString, game: Cs2Game, csrf_token: IgnoredText }),
  response: InternalOk({}),
});

export const BOUGHT_ITEM_STATES = ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING", "SUCCESS", "FAIL"] as const;

export const listBoughtItems = defineOperation({
  id: "listBoughtItems",
  method: "GET",
  path: "/api/market/buy_order/history",
  access: "session",
  envelope: "internal",
  summary: "The caller's purchases (listings bought and buy orders filled) as bill orders, newest first",
  tags: ["Website buying"],
  querystring: Type.Object({
    game: Cs2Game,
    page_num: PageNum,
    page_size: PageSize(500, 20),
    state: Type.Optional(
      Type.Enum([...BOUGHT_ITEM_STATES, ...BOUGHT_ITEM_STATES.map((state) => state.toLowerCase())], {
        description: "a trade state, in capitals or not (trading, success...)",
      }),
    ),
  }),
  response: InternalOk({
    items: Type.Array(WebBillOrder),
    goods_infos: Type.Record(Type.String(), WebGoodsInfo),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});
