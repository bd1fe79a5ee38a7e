import { setupPlatformAccount as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { setupPlatformAccount } from "../../../domain/platform-accounts/setup-platform-account.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSetupPlatformAccount(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, body }) =>
    setupPlatformAccount(ctx, { platformid: body.platformid }),
  );
}
