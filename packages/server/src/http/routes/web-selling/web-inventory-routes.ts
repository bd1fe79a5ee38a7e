import { getWebBackpack, getWebInventory } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getWebInventory as readInventory } from "../../../domain/platform-accounts/get-web-inventory.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "./internal-answer.ts";

/** GET /api/market/steam_inventory and /api/market/backpack: what the signed-in user owns. */
export function registerWebInventoryRoutes(app: FastifyInstance): void {
  registerOperation(app, getWebInventory, async ({ ctx, query }) =>
    internalAnswer(
      await readInventory(ctx, {
        pageNum: query.page_num,
        pageSize: query.page_size,
        force: query.force === 1,
        ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
        ...(query.search !== undefined ? { search: query.search } : {}),
        ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
        ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
        sortBy: query.sort_by,
        state: query.state,
        nametagOnly: false,
      }),
    ),
  );

  // Items never leave the platform for the marketplace's keeping (docs/design/website-account-and-selling-routes.md#the-websites-selling-routes), so the
  // backpack the real website keeps for bought items is always empty here.
  registerOperation(app, getWebBackpack, ({ query }) =>
    ok({
      code: "OK" as const,
      data: {
        items: [],
        goods_infos: {},
        backpack_count: 0,
        page_num: query.page_num,
        page_size: query.page_size,
        total_count: 0,
        total_page: 0,
      },
      msg: null,
    }),
  );
}
