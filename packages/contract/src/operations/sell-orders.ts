import { Type } from "typebox";
import {
  MoneyInput,
  MoneyString,
  PageNum,
  PageSize,
  RecordGame,
  StrictObject,
  Text,
  Cs2Game,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { AssetInfo, ListingFigureFields } from "../records.ts";
import { PlatformId } from "./platform.ts";

/** The reference's on-sale listing record (own listings). */
export const OnSaleListing = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  game: RecordGame,
  goods_id: Type.Integer(),
  price: MoneyString,
  asset_info: AssetInfo,
  allow_wallet_zft: Type.Boolean(),
  allow_epay: Type.Boolean(),
  allow_pending_divide_balance: Type.Boolean(),
  can_bargain: Type.Boolean(),
  can_bargain_swap: Type.Boolean(),
  cannot_bargain_reason: Type.String(),
  description: Type.String(),
  force_buyer_send_offer: Type.Boolean(),
  // The reference admits null here too; we always know the figures.
  ...ListingFigureFields,
});

const AssetId = Type.String({ pattern: "^\\d{1,15}$", description: "an assetid of at most 15 digits" });
const SellOrderId = Type.String({
  pattern: "^[1-9]\\d{0,14}$",
  description: "a sell order id of at most 15 digits",
});

/** Per-item outcomes of the batch operations: each id maps to `OK` or a message (reference: Errors 3). */
const PerItem = Type.Record(Type.String(), Type.String());

/** POST /api/market/developer/sell_order/items: puts up to 200 items on sale. */
export const listItems = defineOperation({
  id: "listItems",
  method: "POST",
  path: "/api/market/developer/sell_order/items",
  access: "developer",
  envelope: "official",
  summary: "Puts up to 200 items of bound platform accounts on sale; answers OK or a message per assetid",
  tags: ["Sell orders"],
  body: StrictObject({
    game: Cs2Game,
    assets: Type.Array(
      StrictObject({
        assetid: AssetId,
        price: MoneyInput,
        allow_bargain: Type.Optional(Type.Boolean({ default: false })),
        allow_wallet_zft: Type.Optional(Type.Boolean({ default: true })),
        allow_epay: Type.Optional(Type.Boolean({ default: true })),
        allow_pending_divide_balance: Type.Optional(Type.Boolean({ default: false })),
        force_buyer_send_offer: Type.Optional(Type.Boolean({ default: false })),
        description: Type.Optional(Text({ maxLength: 200, multiline: true })),
      }),
      { minItems: 1, maxItems: 200 },
    ),
  }),
  response: Type.Object(
    { sell_orders: Type.Record(Type.String(), Type.Object({ sell_order_id: Type.String() })) },
    { additionalProperties: Type.String() },
  ),
});

/** The answer of listItems: `OK` or a message per assetid, beside `sell_orders`. */
export type ListItemsAnswer = { sell_orders: Record<string, { sell_order_id: string }> } & {
  [assetid: string]: string | Record<string, { sell_order_id: string }>;
};

/** DELETE /api/market/developer/sell_order/items: takes up to 50 listings off sale. */
export const delistItems = defineOperation({
  id: "delistItems",
  method: "DELETE",
  path: "/api/market/developer/sell_order/items",
  access: "developer",
  envelope: "official",
  summary: "Removes up to 50 of the caller's listings from sale; answers OK or a message per sell order id",
  tags: ["Sell orders"],
  body: StrictObject({
    game: Cs2Game,
    sell_orders: Type.Array(SellOrderId, { minItems: 1, maxItems: 50 }),
  }),
  response: PerItem,
});

/** PUT /api/market/developer/sell_order/items: changes the prices of up to 200 listings. */
export const repriceItems = defineOperation({
  id: "repriceItems",
  method: "PUT",
  path: "/api/market/developer/sell_order/items",
  access: "developer",
  envelope: "official",
  summary:
    "Changes the prices of up to 200 of the caller's listings; answers OK or a message per sell order id",
  tags: ["Sell orders"],
  body: StrictObject({
    game: Cs2Game,
    sell_orders: Type.Array(StrictObject({ sell_order_id: SellOrderId, price: MoneyInput }), {
      minItems: 1,
      maxItems: 200,
    }),
  }),
  response: PerItem,
});

export const ON_SALE_SORTS = [
  "price.asc",
  "price.desc",
  "updated.asc",
  "updated.desc",
  "paintwear.asc",
  "paintwear.desc",
  "float.asc",
  "float.desc",
] as const;

/** GET /api/market/developer/sell_order/on_sale: the caller's listings on sale. */
export const getOnSale = defineOperation({
  id: "getOnSale",
  method: "GET",
  path: "/api/market/developer/sell_order/on_sale",
  access: "developer",
  envelope: "official",
  summary: "The caller's listings on sale, filtered, sorted and paginated",
  tags: ["Sell orders"],
  querystring: Type.Object({
    game: Cs2Game,
    platformid: Type.Optional(PlatformId),
    min_price: Type.Optional(MoneyInput),
    max_price: Type.Optional(MoneyInput),
    min_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    max_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    search: Type.Optional(Text({ maxLength: 100 })),
    sort_by: Type.Enum(ON_SALE_SORTS, { default: "updated.desc" }),
    page_num: PageNum,
    page_size: PageSize(100, 10),
  }),
  response: Type.Object({
    code: Type.Literal(0),
    data: Type.Object({
      items: Type.Array(OnSaleListing),
      total_count: Type.Integer(),
      page_num: Type.Integer(),
      page_size: Type.Integer(),
      total_page: Type.Integer(),
    }),
  }),
});
