import { getPlatformInventory as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getPlatformInventory } from "../../../domain/platform-accounts/get-platform-inventory.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetPlatformInventory(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, query }) =>
    getPlatformInventory(ctx, {
      platformid: query.platformid,
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
      nametagOnly: query.nametag === 1,
    }),
  );
}
