import { addBookmark as addOperation, removeBookmark as removeOperation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { addBookmark } from "../../../domain/goods/add-bookmark.ts";
import { removeBookmark } from "../../../domain/goods/remove-bookmark.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/** POST and DELETE /api/market/goods/bookmark: the signed-in user's bookmarks. */
export function registerGoodsBookmarks(app: FastifyInstance): void {
  registerOperation(app, addOperation, async ({ ctx, body }) => {
    const added = await addBookmark(ctx, body);
    return added.ok ? ok({ code: "OK" as const, data: added.value, msg: null }) : added;
  });
  registerOperation(app, removeOperation, async ({ ctx, body }) => {
    const removed = await removeBookmark(ctx, body);
    return removed.ok ? ok({ code: "OK" as const, data: removed.value, msg: null }) : removed;
  });
}
