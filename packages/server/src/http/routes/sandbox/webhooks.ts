import {
  sandboxCreateWebhookEndpoint,
  sandboxListWebhookEndpoints,
  sandboxSendTestWebhook,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { requireUser } from "../../../domain/users/require-user.ts";
import { ok } from "../../../domain/result.ts";
import { sendTestWebhook } from "../../../domain/webhooks/deliveries.ts";
import { createWebhookEndpoint, listWebhookEndpoints } from "../../../domain/webhooks/endpoints.ts";
import { sampleEvent } from "../../../domain/webhooks/sample-events.ts";
import { registerOperation } from "../../operation-route.ts";

/** The sandbox's webhook routes: registration for a user, and test events (docs/sandbox.md). */
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
}
