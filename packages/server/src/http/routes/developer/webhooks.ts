import {
  createWebhookEndpoint as createOperation,
  deleteWebhookEndpoint as deleteOperation,
  getWebhookEndpoint as getOperation,
  listWebhookDeliveries as listDeliveriesOperation,
  listWebhookEndpoints as listOperation,
  redeliverWebhook as redeliverOperation,
  rollWebhookSecret as rollOperation,
  updateWebhookEndpoint as updateOperation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import type { DomainContext } from "../../../domain/context.ts";
import { fail } from "../../../domain/result.ts";
import { listWebhookDeliveries, redeliverWebhook } from "../../../domain/webhooks/deliveries.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rollWebhookSecret,
  updateWebhookEndpoint,
} from "../../../domain/webhooks/endpoints.ts";
import { registerOperation } from "../../operation-route.ts";

/** The caller's user id, or the failure a non-user caller gets. */
function userOf(ctx: DomainContext) {
  return ctx.actor.kind === "user" ? ctx.actor.userId : undefined;
}
const noUser = () => fail("Unauthorized", "a user token is required");

/** The webhook operations (docs/design/webhooks-and-tools.md#webhooks). */
export function registerWebhookRoutes(app: FastifyInstance): void {
  registerOperation(app, createOperation, async ({ ctx, body }) => {
    const userId = userOf(ctx);
    return userId === undefined ? noUser() : createWebhookEndpoint(ctx, userId, body);
  });
  registerOperation(app, listOperation, async ({ ctx }) => {
    const userId = userOf(ctx);
    return userId === undefined ? noUser() : listWebhookEndpoints(ctx, userId);
  });
  registerOperation(app, getOperation, async ({ ctx, params }) => {
    const userId = userOf(ctx);
    return userId === undefined ? noUser() : getWebhookEndpoint(ctx, userId, Number(params.endpoint_id));
  });
  registerOperation(app, updateOperation, async ({ ctx, params, body }) => {
    const userId = userOf(ctx);
    return userId === undefined
      ? noUser()
      : updateWebhookEndpoint(ctx, userId, Number(params.endpoint_id), body);
  });
  registerOperation(app, deleteOperation, async ({ ctx, params }) => {
    const userId = userOf(ctx);
    return userId === undefined ? noUser() : deleteWebhookEndpoint(ctx, userId, Number(params.endpoint_id));
  });
  registerOperation(app, rollOperation, async ({ ctx, params }) => {
    const userId = userOf(ctx);
    return userId === undefined ? noUser() : rollWebhookSecret(ctx, userId, Number(params.endpoint_id));
  });
  registerOperation(app, listDeliveriesOperation, async ({ ctx, params, query }) => {
    const userId = userOf(ctx);
    return userId === undefined
      ? noUser()
      : listWebhookDeliveries(ctx, userId, Number(params.endpoint_id), query);
  });
  registerOperation(app, redeliverOperation, async ({ ctx, params }) => {
    const userId = userOf(ctx);
    return userId === undefined
      ? noUser()
      : redeliverWebhook(ctx, userId, Number(params.endpoint_id), Number(params.delivery_id));
  });
}
