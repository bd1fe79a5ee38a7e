import { Type } from "typebox";
import { IdString, PageNum, PageSize, StrictObject, Text, UnixSeconds } from "../common.ts";
import { EVENT_TYPES } from "../events.ts";
import { defineOperation } from "../operation.ts";
import { EventId, EventRecord } from "./events.ts";

/**
 * Webhooks (docs/design/webhooks-and-tools.md#webhooks): a user's endpoints receive their account
 * events as signed POSTs, one event each, in order, at least once.
 */
const official = { access: "developer", envelope: "official", tags: ["Webhooks"] } as const;
const sandbox = { access: "sandbox_admin", envelope: "sandbox", tags: ["Sandbox"] } as const;

/** Where deliveries go: an absolute http or https URL. */
export const WebhookUrl = Text({
  minLength: 1,
  maxLength: 2000,
  description: "an absolute http:// or https:// URL, without user name or password",
  examples: ["https://bot.example.com/skinmarket/events"],
});

/** The event types an endpoint wants: exact types, a family (`trade.*`) or `*` (every account event). */
export const WebhookEventTypes = Type.Array(Text({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: "account event types; `trade.*` names a family, `*` every account event",
  examples: [["trade.*", "balance.changed"]],
});

const WebhookDescription = Text({ maxLength: 200, multiline: true, description: "a note for the owner" });

/** An endpoint as its owner sees it; the secret is never in it. */
export const WebhookEndpointRecord = Type.Object({
  id: IdString,
  url: Type.String(),
  types: Type.Array(Type.String()),
  description: Type.String(),
  enabled: Type.Boolean(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
});

/** An endpoint with its signing secret: answered only when the secret is made (creation, a roll). */
export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpointRecord.properties,
  secret: Type.String({
    description:
      "the signing secret (`whsec_` + 43 characters); shown only in this answer, keep it to verify signatures",
  }),
});

export const WebhookDeliveryState = Type.Enum(["pending", "delivered", "failed"]);

/** One event owed to an endpoint, and how its attempts went. */
export const WebhookDeliveryRecord = Type.Object({
  id: IdString,
  endpoint_id: IdString,
  event_id: EventId,
  event_type: Type.String(),
  state: WebhookDeliveryState,
  attempts: Type.Integer({ description: "attempts made so far" }),
  created_at: UnixSeconds,
  next_attempt_at: Type.Union([UnixSeconds, Type.Null()], {
    description: "when the next attempt is due (pending deliveries), by the marketplace clock",
  }),
  last_attempt_at: Type.Union([UnixSeconds, Type.Null()]),
  last_status: Type.Union([Type.Integer(), Type.Null()], {
    description: "the receiver's HTTP status at the last attempt; null when none came",
  }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  delivered_at: Type.Union([UnixSeconds, Type.Null()]),
});

/** One attempt made at once (a redelivery, a test event). */
export const WebhookAttemptRecord = Type.Object({
  delivered: Type.Boolean({ description: "the receiver answered 2xx" }),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Integer(),
});

const EndpointParams = StrictObject({ endpoint_id: IdString });
const CreateBody = StrictObject({
  url: WebhookUrl,
  types: WebhookEventTypes,
  description: Type.Optional(WebhookDescription),
});

const UpdateBody = StrictObject({
  url: Type.Optional(WebhookUrl),
  types: Type.Optional(WebhookEventTypes),
  description: Type.Optional(WebhookDescription),
  enabled: Type.Optional(Type.Boolean()),
});
const DeletedAnswer = Type.Object({ id: IdString, deleted: Type.Literal(true) });
const DeliveriesQuery = Type.Object({
  page_num: PageNum,
  page_size: PageSize(100, 20),
  state: Type.Optional(WebhookDeliveryState),
});
const DeliveriesPage = Type.Object({
  items: Type.Array(WebhookDeliveryRecord),
  page_num: Type.Integer(),
  page_size: Type.Integer(),
  total_count: Type.Integer(),
});
const RedeliveryAnswer = Type.Object({ attempt: WebhookAttemptRecord, delivery: WebhookDeliveryRecord });

export const createWebhookEndpoint = defineOperation({
  ...official,
  id: "createWebhookEndpoint",
  method: "POST",
  path: "/api/market/developer/webhooks",
  summary:
    "Registers a webhook endpoint that receives the caller's account events, and answers its secret once",
  description:
    'Each event is POSTed as JSON with `Skinmarket-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` and `Skinmarket-Event-Id`. A receiver answers 2xx within 10 s; anything else is retried with backoff for 3 days, the endpoint\'s later events waiting behind. At most 20 endpoints per user.',
  body: CreateBody,
  response: WebhookEndpointWithSecret,
});

export const listWebhookEndpoints = defineOperation({
  ...official,
  id: "listWebhookEndpoints",
  method: "GET",
  path: "/api/market/developer/webhooks",
  summary: "The caller's webhook endpoints, oldest first (without their secrets)",
  response: Type.Object({ items: Type.Array(WebhookEndpointRecord) }),
});

export const getWebhookEndpoint = defineOperation({
  ...official,
  id: "getWebhookEndpoint",
  method: "GET",
  path: "/api/market/developer/webhooks/:endpoint_id",
  summary: "One of the caller's webhook endpoints",
  params: EndpointParams,
  response: WebhookEndpointRecord,
});

export const updateWebhookEndpoint = defineOperation({
  ...official,
  id: "updateWebhookEndpoint",
  method: "PUT",
  path: "/api/market/developer/webhooks/:endpoint_id",
  summary: "Changes a webhook endpoint's URL, event types, description, or turns it off and on",
  description:
    "A disabled endpoint is owed no new events; its pending deliveries wait until it is enabled again.",
  params: EndpointParams,
  body: UpdateBody,
  response: WebhookEndpointRecord,
});

export const deleteWebhookEndpoint = defineOperation({
  ...official,
  id: "deleteWebhookEndpoint",
  method: "DELETE",
  path: "/api/market/developer/webhooks/:endpoint_id",
  summary: "Deletes a webhook endpoint; its pending deliveries are dropped as failed",
  params: EndpointParams,
  response: DeletedAnswer,
});

export const rollWebhookSecret = defineOperation({
  ...official,
  id: "rollWebhookSecret",
  method: "POST",
  path: "/api/market/developer/webhooks/:endpoint_id/secret/roll",
  summary: "Replaces a webhook endpoint's signing secret and answers the new one once",
  description: "Deliveries are signed with the new secret from this answer on; the old one stops at once.",
  params: EndpointParams,
  response: WebhookEndpointWithSecret,
});

export const listWebhookDeliveries = defineOperation({
  ...official,
  id: "listWebhookDeliveries",
  method: "GET",
  path: "/api/market/developer/webhooks/:endpoint_id/deliveries",
  summary: "A page of a webhook endpoint's deliveries, newest first, with their state and last attempt",
  params: EndpointParams,
  querystring: DeliveriesQuery,
  response: DeliveriesPage,
});

export const redeliverWebhook = defineOperation({
  ...official,
  id: "redeliverWebhook",
  method: "POST",
  path: "/api/market/developer/webhooks/:endpoint_id/deliveries/:delivery_id/redeliver",
  summary: "Sends a delivery's event again now, whatever its state, and answers how the attempt went",
  description:
    "The attempt is made during the request (at most 10 s). A success marks a pending or failed delivery delivered; a failure leaves its state and schedule as they were. Answers `Invalid State` while another attempt to the same endpoint is under way.",
  params: StrictObject({ endpoint_id: IdString, delivery_id: IdString }),
  response: RedeliveryAnswer,
});

const SandboxUserParams = StrictObject({ user_id: IdString });

export const sandboxCreateWebhookEndpoint = defineOperation({
  ...sandbox,
  id: "sandboxCreateWebhookEndpoint",
  method: "POST",
  path: "/sandbox/users/:user_id/webhooks",
  summary: "Registers a webhook endpoint for a user, as the user would, and answers its secret once",
  params: SandboxUserParams,
  body: CreateBody,
  response: WebhookEndpointWithSecret,
});

export const sandboxListWebhookEndpoints = defineOperation({
  ...sandbox,
  id: "sandboxListWebhookEndpoints",
  method: "GET",
  path: "/sandbox/users/:user_id/webhooks",
  summary: "A user's webhook endpoints (without their secrets)",
  params: SandboxUserParams,
  response: Type.Object({ items: Type.Array(WebhookEndpointRecord) }),
});

export const sandboxSendTestWebhook = defineOperation({
  ...sandbox,
  id: "sandboxSendTestWebhook",
  method: "POST",
  path: "/sandbox/webhooks/:endpoint_id/test",
  summary: "Sends a test event of any type to a webhook endpoint now, signed as every delivery is",
  description:
    "The event is synthetic and marked so: its id is `0` (real ids start at 1), it carries a sample record of its type, and the request has `Skinmarket-Test: true`. It is not in the log and no delivery is recorded; the endpoint's types do not filter it.",
  params: EndpointParams,
  body: StrictObject({ type: Type.Enum([...EVENT_TYPES]) }),
  response: Type.Object({ event: EventRecord, attempt: WebhookAttemptRecord }),
});

/*
 * The operator's hand on a user's endpoints (docs/design/website-console.md#the-consoles-events-and-webhooks):
 * what the user's own operations do, through the sandbox admin token, so the console manages a
 * user's webhooks without creating an API token of theirs. An endpoint of another user is Not Found.
 */
const SandboxEndpointParams = StrictObject({ user_id: IdString, endpoint_id: IdString });

export const sandboxUpdateWebhookEndpoint = defineOperation({
  ...sandbox,
  id: "sandboxUpdateWebhookEndpoint",
  method: "PUT",
  path: "/sandbox/users/:user_id/webhooks/:endpoint_id",
  summary: "Changes a user's webhook endpoint or turns it off and on, as the user would",
  params: SandboxEndpointParams,
  body: UpdateBody,
  response: WebhookEndpointRecord,
});

export const sandboxDeleteWebhookEndpoint = defineOperation({
  ...sandbox,
  id: "sandboxDeleteWebhookEndpoint",
  method: "DELETE",
  path: "/sandbox/users/:user_id/webhooks/:endpoint_id",
  summary:
    "Deletes a user's webhook endpoint, as the user would; its pending deliveries are dropped as failed",
  params: SandboxEndpointParams,
  response: DeletedAnswer,
});

export const sandboxListWebhookDeliveries = defineOperation({
  ...sandbox,
  id: "sandboxListWebhookDeliveries",
  method: "GET",
  path: "/sandbox/users/:user_id/webhooks/:endpoint_id/deliveries",
  summary: "A page of a user's webhook endpoint's deliveries, newest first, as the user reads them",
  params: SandboxEndpointParams,
  querystring: DeliveriesQuery,
  response: DeliveriesPage,
});

export const sandboxRedeliverWebhook = defineOperation({
  ...sandbox,
  id: "sandboxRedeliverWebhook",
  method: "POST",
  path: "/sandbox/users/:user_id/webhooks/:endpoint_id/deliveries/:delivery_id/redeliver",
  summary: "Sends a delivery of a user's endpoint again now, as the user would, and answers how it went",
  params: StrictObject({ user_id: IdString, endpoint_id: IdString, delivery_id: IdString }),
  response: RedeliveryAnswer,
});
