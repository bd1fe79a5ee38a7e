import { Type } from "typebox";
import { Cs2Game, IdString, MoneyString, PageNum, PageSize, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { BookmarkPriceAlert } from "./web-bookmark-alerts.ts";
import { CatalogItem } from "./web-shapes.ts";

/** The website's bookmarks of goods and listings (docs/design/website-goods-routes.md#the-websites-goods-pages), for the signed-in user. */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

const BookmarkBody = StrictObject({
  type: Type.Enum(["goods", "sell_order"]),
  id: IdString,
});

const BookmarkAnswer = InternalOk({
  type: Type.String(),
  id: Type.String(),
  bookmarked: Type.Boolean(),
});

/** POST /api/market/goods/bookmark: the signed-in user bookmarks a goods or a listing. */
export const addBookmark = defineOperation({
  id: "addBookmark",
  method: "POST",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary: "Bookmarks a goods or a listing on sale for the signed-in user (again: no change)",
  tags: ["Website"],
  body: BookmarkBody,
  response: BookmarkAnswer,
});

/** GET /api/market/goods/bookmark: the signed-in user's bookmarks, newest first. */
export const listBookmarks = defineOperation({
  id: "listBookmarks",
  method: "GET",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary:
    "The signed-in user's bookmarks, newest first: each goods with its market figures, each listing with its price and whether it is still on sale",
  tags: ["Website"],
  querystring: Type.Object({
    game: Type.Optional(Cs2Game),
    type: Type.Enum(["goods", "sell_order"], { default: "goods" }),
    page_num: PageNum,
    page_size: PageSize(80, 20),
  }),
  response: InternalOk({
    items: Type.Array(
      StrictObject({
        type: Type.Enum(["goods", "sell_order"]),
        id: Type.String({ description: "the goods id, or the listing's id" }),
        created_at: Type.Integer({ description: "when it was bookmarked, Unix seconds" }),
        goods: CatalogItem,
        sell_order: Type.Union([
          StrictObject({
            id: Type.String(),
            price: MoneyString,
            on_sale: Type.Boolean({ description: "false once sold or withdrawn: the bookmark stays" }),
          }),
          Type.Null(),
        ]),
        alert: Type.Union([BookmarkPriceAlert, Type.Null()], {
          description: "the goods' price alert (`setBookmarkAlert`); null without one, and for a listing",
        }),
      }),
    ),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});

/** DELETE /api/market/goods/bookmark: removes one of the signed-in user's bookmarks. */
export const removeBookmark = defineOperation({
  id: "removeBookmark",
  method: "DELETE",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary: "Removes a bookmark of the signed-in user (none: no change)",
  tags: ["Website"],
  body: BookmarkBody,
  response: BookmarkAnswer,
});
