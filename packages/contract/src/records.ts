import { Type, type Static } from "typebox";
import { MoneyString, RecordGame } from "./common.ts";

/** The reference's asset_info record and its parts (reference: Resources and their fields). */
export const StickerEntry = Type.Object({
  sticker_id: Type.Integer(),
  slot: Type.Integer(),
  wear: Type.Number(),
  category: Type.String(),
  market_hash_name: Type.String(),
  offset_x: Type.Number(),
  offset_y: Type.Number(),
  rotation: Type.Number(),
});

export const KeychainEntry = Type.Object({
  keychain_id: Type.Integer(),
  slot: Type.Integer(),
  pattern: Type.Integer(),
  market_hash_name: Type.String(),
  offset_x: Type.Number(),
  offset_y: Type.Number(),
  offset_z: Type.Number(),
});

export const TournamentTag = Type.Object({ category: Type.String(), internal_name: Type.String() });

export const InspectInfo = Type.Object({
  game_release_date: Type.Optional(Type.String()),
  inspect_url: Type.Optional(Type.String()),
  is_charm: Type.Optional(Type.Boolean()),
  is_customplayer: Type.Optional(Type.Boolean()),
});

export const AssetInfo = Type.Object({
  assetid: Type.String(),
  classid: Type.String(),
  contextid: Type.Integer(),
  goods_id: Type.Integer(),
  id: Type.String({ description: "asset record id" }),
  instanceid: Type.String(),
  paintwear: Type.String({ description: "decimal between 0 and 1; empty for items without wear" }),
  info: Type.Object({
    fraudwarnings: Type.Union([Type.String(), Type.Null()], { description: "the name tag" }),
    paintindex: Type.Union([Type.Integer(), Type.Null()]),
    paintseed: Type.Union([Type.Integer(), Type.Null()]),
    stickers: Type.Array(StickerEntry),
    tournament_tags: Type.Array(TournamentTag),
    inspect_info: InspectInfo,
    keychains: Type.Array(KeychainEntry),
    icon_url: Type.String(),
    original_icon_url: Type.String(),
  }),
});
export type AssetInfo = Static<typeof AssetInfo>;

/**
 * The platform's price of a goods under both names: the reference renames the real service's
 * `steam_*` fields to `platform_*`, and the tools written for the real service read `steam_*`;
 * every record carries both, with one value (docs/design/wire-conventions.md#wire-conventions).
 */
export const PlatformPriceFields = { platform_price: MoneyString, steam_price: MoneyString };

/** `PlatformPriceFields` with their `_cny` twins (all amounts here are yuan). */
export const PlatformPriceCnyFields = {
  ...PlatformPriceFields,
  platform_price_cny: MoneyString,
  steam_price_cny: MoneyString,
};

/** The goods' page on the game platform's community market, under both names as above. */
export const PlatformMarketUrlFields = {
  platform_market_url: Type.String({ format: "uri" }),
  steam_market_url: Type.String({ format: "uri" }),
};

/** The reference's inventory item record. `state`: 0 tradable, 1 in trade cooldown, 2 on sale. */
export const InventoryItem = Type.Object({
  appid: Type.Integer(),
  game: RecordGame,
  assetid: Type.String(),
  market_hash_name: Type.String(),
  goods_id: Type.Integer(),
  ...PlatformPriceFields,
  sell_min_price: MoneyString,
  buy_max_price: MoneyString,
  tradable: Type.Boolean(),
  tradable_time: Type.Union([Type.Integer(), Type.Null()], {
    description: "end of the trade cooldown, Unix seconds",
  }),
  state: Type.Integer({ description: "0 tradable, 1 in trade cooldown, 2 on sale" }),
  state_text: Type.String(),
  asset_info: AssetInfo,
});
export type InventoryItem = Static<typeof InventoryItem>;

/**
 * The figures every listing record carries (the own `on_sale`, the enterprise and the website
 * listings), computed by one function for all three (docs/design/official-operations.md#get-apimarketenterprisegoodssell_order). The reference
 * types them as numbers on the enterprise record; the others show the same numbers.
 */
export const ListingFigureFields = {
  recent_average_duration: Type.Number({
    description: "mean seconds the seller took to deliver over the last 7 days; 0 without deliveries",
  }),
  recent_deliver_rate: Type.Number({
    description: "share (0-1) of the seller's deliveries of the last 7 days that arrived; 0 without any",
  }),
  sticker_premium: Type.Number({
    description: "price above the goods' lowest price, as a share of the stickers' lowest prices; 0 without",
  }),
};
