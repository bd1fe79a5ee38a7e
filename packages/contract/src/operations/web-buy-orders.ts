import { Type, type TSchema } from "typebox";
import {
  CS2_GAMES,
  INT32_MAX,
  IdString,
  IntegerOrDigits,
  MoneyInput,
  PageNum,
  PageSize,
  StrictObject,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { BuyOrderPage, OwnBuyOrderRecord, Specific } from "./buy-orders.ts";
import { WebGoodsInfo } from "./web-shapes.ts";

/**
 * The website's own buy-order routes (docs/design/website-buying-routes.md#the-websites-buy-order-routes): create, the orders waiting for supply, cancel, with a signed-in session and
 * the CSRF token, on the same domain verbs as the official `buy_order` operations. Paths and
 * bodies as real tools send them (a PUBG and a Dota 2 bot of the real service).
 */

const WebGame = Type.Enum([...CS2_GAMES], { default: "csgo", description: "cs2 or csgo; csgo when absent" });

/** The real website's pay-method codes: 3 the balance, 101 the buy-order funds. */
const WebBuyOrderPayMethod = IntegerOrDigits(
  { minimum: 0, maximum: 1000 },
  "3: the balance; 101: the buy-order funds; absent: both",
);

/** `allow_tradable_cooldown` as the tools send it: 0 or 1, or a boolean. */
const ZeroOrOne = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1), Type.Enum(["0", "1"])], {
  description: "1 (or true): items still in their trade cooldown are accepted",
});

/** `{code: "OK", data, msg: null}` around any data schema. */
function internal<Data extends TSchema>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data, msg: Type.Null() });
}

/** POST /api/market/buy_order/create: a buy order from the website. */
export const createWebBuyOrder = defineOperation({
  id: "createWebBuyOrder",
  method: "POST",
  path: "/api/market/buy_order/create",
  access: "session",
  envelope: "internal",
  summary: "Creates a buy order for the signed-in user; it buys eligible listings at once, then waits",
  tags: ["Website buying"],
  body: StrictObject({
    game: WebGame,
    appid: Type.Optional(Type.Union([Type.Literal(730), Type.Literal("730")])),
    goods_id: IntegerOrDigits({ minimum: 1, maximum: INT32_MAX }),
    price: MoneyInput,
    num: IntegerOrDigits({ minimum: 1, maximum: 1000 }),
    pay_method: Type.Optional(WebBuyOrderPayMethod),
    allow_tradable_cooldown: Type.Optional(ZeroOrOne),
    specific: Type.Optional(Type.Array(Specific, { maxItems: 4 })),
  }),
  response: internal(OwnBuyOrderRecord),
});

/** GET /api/market/buy_order/wait_supply: the signed-in user's buy orders still waiting for items. */
export const listWebBuyOrders = defineOperation({
  id: "listWebBuyOrders",
  method: "GET",
  path: "/api/market/buy_order/wait_supply",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user's buy orders in progress, newest first",
  tags: ["Website buying"],
  querystring: Type.Object({
    game: Type.Optional(WebGame),
    appid: Type.Optional(Type.Literal(730)),
    page_num: PageNum,
    page_size: PageSize(500, 60),
  }),
  response: internal(
    Type.Object({
      ...BuyOrderPage.properties,
      goods_infos: Type.Record(Type.String(), WebGoodsInfo, {
        description: "the goods the page's orders name, by goods id, as the other website lists give them",
      }),
    }),
  ),
});

/** POST /api/market/buy_order/cancel: cancels buy orders; `data` maps each id to "OK" or why not. */
export const cancelWebBuyOrders = defineOperation({
  id: "cancelWebBuyOrders",
  method: "POST",
  path: "/api/market/buy_order/cancel",
  access: "session",
  envelope: "internal",
  summary: "Cancels up to 100 of the signed-in user's buy orders; answers OK or a message per id",
  tags: ["Website buying"],
  body: StrictObject({
    game: WebGame,
    appid: Type.Optional(Type.Union([Type.Literal(730), Type.Literal("730")])),
    buy_orders: Type.Array(IdString, { minItems: 1, maxItems: 100 }),
  }),
  response: internal(Type.Record(Type.String(), Type.String())),
});
