import { Type } from "typebox";
import {
  GoodsId,
  MarketHashName,
  MoneyInput,
  MoneyString,
  needingOneOf,
  PageNum,
  PageSize,
  RecordGame,
  StrictObject,
  Text,
  UnixSeconds,
  Cs2Game,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { AssetInfo } from "../records.ts";
import { PlatformId } from "./platform.ts";

const OrderId = Type.String({ pattern: "^[1-9]\\d{0,14}$", description: "an order id of at most 15 digits" });
const PayMethod = Type.Enum(["balance", "margin", "wallet", "bankcard"]);

const TradeRecordBase = {
  id: Type.String(),
  asset_info: AssetInfo,
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  fee: MoneyString,
  game: RecordGame,
  goods_id: Type.Integer(),
  price: MoneyString,
  seller_send_offer: Type.Boolean(),
  state_text: Type.String(),
  type: Type.Integer(),
};

/** The reference's purchase order record (buyer-facing states). */
export const PurchaseOrderRecord = Type.Object({
  ...TradeRecordBase,
  buy_order_id: Type.Optional(Type.String()),
  buyer_platformid: Type.String(),
  state: Type.Enum(["PAYING", "SUCCESS", "FAIL"]),
  tradeofferid: Type.Optional(Type.String()),
  trade_offer_status: Type.Optional(Type.String()),
});

/** The reference's sell order history record (detailed states). */
export const SellOrderHistoryRecord = Type.Object({
  ...TradeRecordBase,
  sell_order_id: Type.String(),
  seller_platformid: Type.String(),
  state: Type.Enum(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING", "SUCCESS", "FAIL"]),
  tradeofferid: Type.String(),
  trade_offer_status: Type.String(),
  rollback_by: Type.String(),
});

const ListBody = {
  game: Cs2Game,
  page_num: PageNum,
  page_size: PageSize(100, 20),
  goods_id: Type.Optional(GoodsId),
  start_time: Type.Optional(UnixSeconds),
  end_time: Type.Optional(UnixSeconds),
};

function page<Item extends ReturnType<typeof Type.Object>>(item: Item) {
  return Type.Object({
    items: Type.Array(item),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  });
}

export const purchaseOrders = defineOperation({
  id: "purchaseOrders",
  method: "POST",
  path: "/api/market/developer/purchase/orders",
  access: "developer",
  envelope: "official",
  summary: "Buys standard goods immediately: the cheapest listings at or below max_price, up to quantity",
  tags: ["Purchases"],
  body: StrictObject({
    game: Cs2Game,
    items: Type.Array(
      StrictObject(
        {
          goods_id: Type.Optional(GoodsId),
          market_hash_name: Type.Optional(MarketHashName),
          max_price: MoneyInput,
          quantity: Type.Integer({ minimum: 1, maximum: 200 }),
        },
        needingOneOf("goods_id", "market_hash_name"),
      ),
      { minItems: 1, maxItems: 20 },
    ),
    pay_method: Type.Optional(PayMethod),
    trade_url: Type.Optional(Text({ maxLength: 200 })),
    platformid: Type.Optional(PlatformId),
  }),
  response: Type.Object({
    result: Type.Record(
      Type.String(),
      Type.Object({
        success_num: Type.Integer(),
        total_cost: Type.Number(),
        bill_order_ids: Type.Array(Type.String()),
        msg: Type.Optional(Type.String({ description: "why fewer than quantity were bought" })),
      }),
    ),
    market_balance: Type.Number(),
  }),
});

export const listPurchaseOrders = defineOperation({
  id: "listPurchaseOrders",
  readOnly: true,
  limits: { rate: { points: 10, seconds: 1 } },
  method: "POST",
  path: "/api/market/developer/purchase/orders/list",
  access: "developer",
  envelope: "official",
  summary: "The caller's purchase orders in any state, newest first",
  tags: ["Purchases"],
  body: StrictObject({ ...ListBody, state: Type.Optional(Type.Enum(["PAYING", "SUCCESS", "FAIL"])) }),
  response: page(PurchaseOrderRecord),
});

export const cancelPurchaseOrders = defineOperation({
  id: "cancelPurchaseOrders",
  method: "DELETE",
  path: "/api/market/developer/purchase/orders",
  access: "developer",
  envelope: "official",
  summary: "Cancels purchases that waited at least 30 minutes for the seller's offer, refunding them",
  tags: ["Purchases"],
  body: StrictObject({ game: Cs2Game, order_ids: Type.Array(OrderId, { minItems: 1, maxItems: 100 }) }),
  response: Type.Object({
    success_list: Type.Array(Type.String()),
    error_list: Type.Record(Type.String(), Type.String()),
  }),
});

export const purchaseQuantity = defineOperation({
  id: "purchaseQuantity",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "GET",
  path: "/api/market/developer/purchase/quantity",
  access: "developer",
  envelope: "official",
  summary: "How many units of a goods a purchase could take now",
  tags: ["Purchases"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: Type.Optional(GoodsId),
    market_hash_name: Type.Optional(MarketHashName),
    max_price: Type.Optional(MoneyInput),
    pay_method: Type.Optional(Type.Enum(["wallet", "bankcard"])),
  }),
  response: Type.Object({ quantity: Type.Integer() }),
});

export const sendOffer = defineOperation({
  id: "sendOffer",
  method: "POST",
  path: "/api/market/developer/sell_order/send_offer",
  access: "developer",
  envelope: "official",
  sessionToo: true,
  summary: "Sends the trade offer for a sold item in SELLER_TO_SEND_OFFER",
  tags: ["Sell orders"],
  body: StrictObject({ order_id: OrderId }),
  response: Type.Object({}),
});

export const sellOrderHistory = defineOperation({
  id: "sellOrderHistory",
  readOnly: true,
  limits: { rate: { points: 10, seconds: 1 } },
  method: "POST",
  path: "/api/market/developer/sell_order/history",
  access: "developer",
  envelope: "official",
  summary: "The caller's sales in any state, newest first, with detailed states",
  tags: ["Sell orders"],
  body: StrictObject({
    ...ListBody,
    state: Type.Optional(Type.Enum(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING", "SUCCESS", "FAIL"])),
  }),
  response: page(SellOrderHistoryRecord),
});
