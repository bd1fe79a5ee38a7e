import { Type } from "typebox";
import { IdString, InternalOk, MoneyInput, MoneyString, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";

/**
 * Price alerts on the website's bookmarked goods (docs/design/events.md#price-alerts-on-bookmarks):
 * the record `setBookmarkAlert` answers, `listBookmarks` carries per goods and the
 * `bookmark.price_alert` event carries as it fired.
 */
export const BookmarkPriceAlert = StrictObject({
  goods_id: IdString,
  market_hash_name: Type.String(),
  name: Type.String(),
  sell_at: Type.Union([MoneyString, Type.Null()], {
    description: "alert when the lowest listing on sale falls to or below this price; null: none",
  }),
  buy_at: Type.Union([MoneyString, Type.Null()], {
    description: "alert when the highest buy order rises to or above this price; null: none",
  }),
  sell_reached: Type.Boolean({
    description:
      "the lowest listing is at or below `sell_at`: fired (or already so when set), re-armed once it is above",
  }),
  buy_reached: Type.Boolean({
    description:
      "the highest buy order is at or above `buy_at`: fired (or already so when set), re-armed once it is below",
  }),
  fired_at: Type.Union([Type.Integer(), Type.Null()], { description: "the last alert sent, Unix seconds" }),
  fired_price: Type.Union([MoneyString, Type.Null()], { description: "the price that fired the last alert" }),
});

/** The `bookmark.price_alert` event's record: which condition the market crossed, at what price. */
export const BookmarkPriceAlertFired = StrictObject({
  crossed: Type.Enum(["sell", "buy"], {
    description:
      "sell: the lowest listing fell to or below `sell_at`; buy: the highest buy order rose to or above `buy_at`",
  }),
  price: MoneyString,
  alert: BookmarkPriceAlert,
});

const AlertPrice = Type.Union([MoneyInput, Type.Null()]);

/** POST /api/market/goods/bookmark/alert: sets or clears the price alert of a bookmarked goods. */
export const setBookmarkAlert = defineOperation({
  id: "setBookmarkAlert",
  method: "POST",
  path: "/api/market/goods/bookmark/alert",
  access: "session",
  envelope: "internal",
  summary:
    "Sets the price alert of one of the signed-in user's bookmarked goods (both prices null: no alert)",
  description:
    "The account gets one `bookmark.price_alert` event each time the market crosses a price: the lowest listing falling to or below `sell_at`, the highest buy order rising to or above `buy_at`. A price already crossed when set fires at the next crossing, once the market has moved back.",
  tags: ["Website"],
  body: StrictObject({
    id: IdString,
    sell_at: Type.Optional(AlertPrice),
    buy_at: Type.Optional(AlertPrice),
  }),
  response: InternalOk({ alert: BookmarkPriceAlert }),
});
