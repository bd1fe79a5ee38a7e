import {
  sandboxCreateWebhookEndpoint,
  sandboxDeleteWebhookEndpoint,
  sandboxListWebhookDeliveries,
  sandboxListWebhookEndpoints,
  sandboxRedeliverWebhook,
  sandboxSendTestWebhook,
  sandboxUpdateWebhookEndpoint,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { requireUser } from "../../../domain/users/require-user.ts";
import { ok } from "../../../domain/result.ts";
import {
  listWebhookDeliveries,
  redeliverWebhook,
  sendTestWebhook,
} from "../../../domain/webhooks/deliveries.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "../../../domain/webhooks/endpoints.ts";
import { sampleEvent } from "../../../domain/webhooks/sample-events.ts";
import { registerOperation } from "../../operation-route.ts";

/**
 * The sandbox's webhook routes: a user's endpoints managed by the operator as the user would
 * (registered, listed, changed, deleted, their deliveries read and sent again), and test events
 * (docs/design/website-console.md#the-consoles-events-and-webhooks).
 */
export function registerSandboxWebhooks(app: FastifyInstance): void {
  registerOperation(app, sandboxCreateWebhookEndpoint, async ({ ctx, params, body }) =>
    createWebhookEndpoint(ctx, Number(params.user_id), body),
  );
  registerOperation(app, sandboxListWebhookEndpoints, async ({ ctx, params }) => {
    const user = await requireUser(ctx, Number(params.user_id));
    if (!user.ok) return user;
    return listWebhookEndpoints(ctx, user.value.userId);
  });
  registerOperation(app, sandboxSendTestWebhook, async ({ ctx, params, body }) => {
    const event = sampleEvent(body.type, ctx.clock.now());
    const sent = await sendTestWebhook(ctx, Number(params.endpoint_id), event);
    if (!sent.ok) return sent;
    return ok({ event, attempt: sent.value.attempt });
  });
  registerOperation(app, sandboxUpdateWebhookEndpoint, async ({ ctx, params, body }) =>
    updateWebhookEndpoint(ctx, Number(params.user_id), Number(params.endpoint_id), body),
  );
  registerOperation(app, sandboxDeleteWebhookEndpoint, async ({ ctx, params }) =>
    deleteWebhookEndpoint(ctx, Number(params.user_id), Number(params.endpoint_id)),
  );
  registerOperation(app, sandboxListWebhookDeliveries, async ({ ctx, params, query }) =>
    listWebhookDeliveries(ctx, Number(params.user_id), Number(params.endpoint_id), query),
  );
  registerOperation(app, sandboxRedeliverWebhook, async ({ ctx, params }) =>
    redeliverWebhook(ctx, Number(params.user_id), Number(params.endpoint_id), Number(params.delivery_id)),
  );
}
