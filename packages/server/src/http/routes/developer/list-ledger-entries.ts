import { listLedgerEntries as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listLedgerEntries } from "../../../domain/wallet/list-ledger-entries.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerListLedgerEntries(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, query }) => listLedgerEntries(ctx, query));
}
