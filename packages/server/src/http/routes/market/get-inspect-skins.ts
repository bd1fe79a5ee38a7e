import { getInspectSkins } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listInspectSkins } from "../../../domain/goods/list-inspect-skins.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "../web-selling/internal-answer.ts";

/** The inspect view's finishes of one weapon (docs/design/website-goods-routes.md#the-inspect-views-finishes). */
export function registerGetInspectSkins(app: FastifyInstance): void {
  registerOperation(app, getInspectSkins, async ({ ctx, query }) =>
    internalAnswer(await listInspectSkins(ctx, query.weapon_name)),
  );
}
