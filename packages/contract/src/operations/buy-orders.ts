import { Type } from "typebox";
import {
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
  Cs2Game,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { GoodsPageSize, WebUserInfos } from "./web-shapes.ts";
import { PlatformId } from "./platform.ts";

export const BuyOrderState = Type.Enum(["progressing", "success", "failed", "waiting"]);

/** One constraint on the items a buy order accepts (docs/design/buy-orders.md#placing-supplying-and-cancelling). */
export const Specific = StrictObject({
  type: Type.Enum(["paintwear", "paintseed", "fade", "phase"]),
  values: Type.Array(Text({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 100 }),
});

/** The reference's own buy order record. */
export const OwnBuyOrderRecord = Type.Object({
  id: Type.String(),
  game: RecordGame,
  goods_id: Type.Integer(),
  price: MoneyString,
  num: Type.Integer(),
  real_num: Type.Integer(),
  frozen_num: Type.Integer(),
  buy_order_num: Type.Integer(),
  buy_max_price: MoneyString,
  sell_min_price: MoneyString,
  created_at: UnixSeconds,
  expire_time: Type.Union([Type.Integer(), Type.Null()]),
  specific: Type.Array(Type.Object({ type: Type.String(), values: Type.Array(Type.String()) })),
  state: BuyOrderState,
  platformid_text: Type.String(),
});

const BuyOrderBody = {
  goods_id: GoodsId,
  price: MoneyInput,
  num: Type.Integer({ minimum: 1, maximum: 1000 }),
  pay_method: Type.Optional(Type.Enum(["balance", "margin"])),
  specific: Type.Optional(Type.Array(Specific, { maxItems: 4 })),
  allow_tradable_cooldown: Type.Optional(Type.Boolean({ default: false })),
  platformid: Type.Optional(PlatformId),
  trade_url: Type.Optional(Text({ minLength: 1, maxLength: 256 })),
};

/** POST /api/market/developer/buy_order: a standing bid that pays on each fill. */
export const createBuyOrder = defineOperation({
  id: "createBuyOrder",
  method: "POST",
  path: "/api/market/developer/buy_order",
  access: "developer",
  envelope: "official",
  summary: "Creates a buy order; it buys eligible listings at or below its price at once, then waits",
  description:
    "A standing bid that pays on each fill. Items are delivered to `trade_url`, or to the trade URL of a bound account set up with `platform/setup`; without either the order is refused. `specific` narrows the items it accepts (paint wear, paint seed, fade, phase).",
  tags: ["Buy orders"],
  body: StrictObject({ game: Cs2Game, ...BuyOrderBody }),
  response: OwnBuyOrderRecord,
});

const ListBuyOrdersQuery = {
  order_state: Type.Optional(BuyOrderState),
  start_time: Type.Optional(UnixSeconds),
  end_time: Type.Optional(UnixSeconds),
  platformid: Type.Optional(PlatformId),
  page_num: PageNum,
  page_size: PageSize(500, 10),
};

export const BuyOrderPage = Type.Object({
  items: Type.Array(OwnBuyOrderRecord),
  page_num: Type.Integer(),
  page_size: Type.Integer(),
  total_count: Type.Integer(),
  total_page: Type.Integer(),
});

/** GET /api/market/developer/buy_order (reference: Buy orders). */
export const listBuyOrders = defineOperation({
  id: "listBuyOrders",
  limits: { rate: { points: 60, seconds: 60 } },
  method: "GET",
  path: "/api/market/developer/buy_order",
  access: "developer",
  envelope: "official",
  summary: "The caller's buy orders, newest first, by state, creation time and delivery account",
  tags: ["Buy orders"],
  querystring: Type.Object({ game: Cs2Game, ...ListBuyOrdersQuery }),
  response: BuyOrderPage,
});

const BuyOrderIds = Type.Array(IdString, { minItems: 1, maxItems: 100 });

/** DELETE /api/market/developer/buy_order (reference: Buy orders). */
export const cancelBuyOrders = defineOperation({
  id: "cancelBuyOrders",
  method: "DELETE",
  path: "/api/market/developer/buy_order",
  access: "developer",
  envelope: "official",
  summary: "Cancels buy orders; answers OK or a message per id; units already matched finish their trades",
  tags: ["Buy orders"],
  body: StrictObject({ game: Cs2Game, buy_order_ids: BuyOrderIds }),
  response: Type.Record(Type.String(), Type.String()),
});

/** POST /api/market/developer/buy_order/supply: a seller fills a chosen buy order. */
export const supplyBuyOrder = defineOperation({
  id: "supplyBuyOrder",
  method: "POST",
  path: "/api/market/developer/buy_order/supply",
  access: "developer",
  envelope: "official",
  sessionToo: true,
  summary:
    "Sells items of bound platform accounts to a chosen buy order at its price; OK or a message per assetid",
  description:
    "A seller fills a chosen buy order with items of their bound platform accounts, at the order's price. Each assetid answers `OK` or why not; `bill_orders` names the trade opened for each item sold.",
  tags: ["Buy orders"],
  body: StrictObject({
    game: Cs2Game,
    buy_order_id: IdString,
    assets: Type.Array(
      Type.String({ pattern: "^\\d{1,15}$", description: "an assetid of at most 15 digits" }),
      {
        minItems: 1,
        maxItems: 200,
      },
    ),
  }),
  response: Type.Object(
    { bill_orders: Type.Record(Type.String(), Type.Object({ bill_order_id: Type.String() })) },
    { additionalProperties: Type.String() },
  ),
});

/** The answer of supplyBuyOrder: `OK` or a message per assetid, beside `bill_orders`. */
export type SupplyBuyOrderAnswer = { bill_orders: Record<string, { bill_order_id: string }> } & {
  [assetid: string]: string | Record<string, { bill_order_id: string }>;
};

const SandboxUserParams = StrictObject({ user_id: IdString });

/** POST /sandbox/users/:user_id/buy_orders: creates a buy order for any user (test worlds). */
export const sandboxCreateBuyOrder = defineOperation({
  id: "sandboxCreateBuyOrder",
  method: "POST",
  path: "/sandbox/users/:user_id/buy_orders",
  access: "sandbox_admin",
  envelope: "sandbox",
  summary: "Creates a buy order for a user, as the user would",
  tags: ["Sandbox"],
  params: SandboxUserParams,
  body: StrictObject(BuyOrderBody),
  response: OwnBuyOrderRecord,
});

/** GET /sandbox/users/:user_id/buy_orders: a user's buy orders. */
export const sandboxListBuyOrders = defineOperation({
  id: "sandboxListBuyOrders",
  method: "GET",
  path: "/sandbox/users/:user_id/buy_orders",
  access: "sandbox_admin",
  envelope: "sandbox",
  summary: "A user's buy orders, as the user would list them",
  tags: ["Sandbox"],
  params: SandboxUserParams,
  querystring: Type.Object(ListBuyOrdersQuery),
  response: BuyOrderPage,
});

/** DELETE /sandbox/users/:user_id/buy_orders: cancels a user's buy orders. */
export const sandboxCancelBuyOrders = defineOperation({
  id: "sandboxCancelBuyOrders",
  method: "DELETE",
  path: "/sandbox/users/:user_id/buy_orders",
  access: "sandbox_admin",
  envelope: "sandbox",
  summary: "Cancels a user's buy orders, as the user would",
  tags: ["Sandbox"],
  params: SandboxUserParams,
  body: StrictObject({ buy_order_ids: BuyOrderIds }),
  response: Type.Record(Type.String(), Type.String()),
});

/** One constraint of a buy order as the website shows it. */
const BookSpecific = Type.Object({
  color: Type.String(),
  simple_text: Type.String(),
  text: Type.String(),
  type: Type.String(),
  values: Type.Array(Type.String()),
});

/** The reference's internal buy-order book item. */
export const BookBuyOrder = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  game: RecordGame,
  appid: Type.Integer(),
  goods_id: Type.Integer(),
  icon_url: Type.String(),
  price: MoneyString,
  fee: MoneyString,
  num: Type.Integer(),
  real_num: Type.Integer(),
  frozen_num: Type.Integer(),
  frozen_amount: MoneyString,
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  expire_time: Type.Integer(),
  allow_tradable_cooldown: Type.Integer(),
  tradable_cooldown: Type.Null(),
  pay_expire_timeout: Type.Integer(),
  pay_method: Type.Integer(),
  pay_method_text: Type.String(),
  supported_pay_channels: Type.Array(Type.String()),
  specific: Type.Array(BookSpecific),
  state: Type.String(),
  state_text: Type.String(),
});

/** GET /api/market/goods/buy_order: the public buy-order book of one goods (website route). */
export const getBuyOrderBook = defineOperation({
  id: "getBuyOrderBook",
  method: "GET",
  path: "/api/market/goods/buy_order",
  access: "public",
  envelope: "internal",
  summary: "The buy-order book of one goods: best price first, orders of offline buyers hidden",
  description:
    "The book as the website shows it, to anyone, signed in or not; orders of buyers whose buy-order status is offline are left out.",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsId,
    page_num: PageNum,
    page_size: GoodsPageSize,
    appid: Type.Optional(Type.Literal(730, { description: "730 (CS2), the only game" })),
    same_goods: Type.Optional(
      Type.Literal(false, {
        description:
          "false (every order of the goods, as tools send it); true, the real website's narrower book, is refused",
      }),
    ),
  }),
  response: InternalOk({
    items: Type.Array(BookBuyOrder),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
    show_pay_method_icon: Type.Boolean(),
    user_infos: WebUserInfos,
  }),
});
