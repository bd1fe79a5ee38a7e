import {
  addBookmark as addOperation,
  listBookmarks as listOperation,
  removeBookmark as removeOperation,
  setBookmarkAlert as setAlertOperation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { addBookmark } from "../../../domain/goods/add-bookmark.ts";
import type { CatalogIndexes } from "../../../domain/goods/catalog-index.ts";
import { listBookmarks } from "../../../domain/goods/list-bookmarks.ts";
import { removeBookmark } from "../../../domain/goods/remove-bookmark.ts";
import { setBookmarkAlert } from "../../../domain/goods/set-bookmark-alert.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/**
 * GET, POST and DELETE /api/market/goods/bookmark: the signed-in user's bookmarks; POST
 * /api/market/goods/bookmark/alert: a bookmarked goods' price alert.
 */
export function registerGoodsBookmarks(app: FastifyInstance, catalogs: CatalogIndexes): void {
  registerOperation(app, listOperation, async ({ ctx, query }) => {
    const page = await listBookmarks(ctx, await catalogs.current(ctx), {
      type: query.type,
      pageNum: query.page_num,
      pageSize: query.page_size,
    });
    return page.ok ? ok({ code: "OK" as const, data: page.value, msg: null }) : page;
  });
  registerOperation(app, addOperation, async ({ ctx, body }) => {
    const added = await addBookmark(ctx, body);
    return added.ok ? ok({ code: "OK" as const, data: added.value, msg: null }) : added;
  });
  registerOperation(app, removeOperation, async ({ ctx, body }) => {
    const removed = await removeBookmark(ctx, body);
    return removed.ok ? ok({ code: "OK" as const, data: removed.value, msg: null }) : removed;
  });
  registerOperation(app, setAlertOperation, async ({ ctx, body }) => {
    const set = await setBookmarkAlert(ctx, body);
    return set.ok ? ok({ code: "OK" as const, data: set.value, msg: null }) : set;
  });
}
