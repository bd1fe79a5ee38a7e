import { getBalance as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getBalance } from "../../../domain/wallet/get-balance.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetBalance(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx }) => getBalance(ctx));
}
