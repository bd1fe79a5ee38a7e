import { Type } from "typebox";
import { Text } from "../common.ts";
import { EVENT_TYPES } from "../events.ts";
import { defineOperation } from "../operation.ts";

/** An event id: a decimal string, as ids are elsewhere in the reference. */
export const EventId = Type.String({ pattern: "^\\d{1,18}$", description: "an event id" });

/** One event of the log, as polling, the stream and webhooks deliver it (docs/design/webhooks-and-tools.md#webhooks). */
export const EventRecord = Type.Object({
  id: EventId,
  type: Type.Enum([...EVENT_TYPES]),
  created_at: Type.Integer({ description: "Unix time in seconds, by the marketplace clock" }),
  goods_id: Type.Union([Type.Integer(), Type.Null()]),
  data: Type.Unknown({ description: "the record the REST operations answer for the object" }),
});

/** A comma-separated list of event types; `trade.*` names every trade event, `*` every event. */
export const EventTypesFilter = Text({
  minLength: 1,
  maxLength: 1000,
  description: "comma-separated event types; `trade.*` names a family, `*` every type",
});

/** Which events to read: after an id, of some types, how many at most. */
export const EventsQuery = Type.Object({
  after: Type.Optional(EventId),
  types: Type.Optional(EventTypesFilter),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});

/** A page of events, oldest first, and whether more follow. */
export const EventsPage = Type.Object({ items: Type.Array(EventRecord), has_more: Type.Boolean() });

/** GET /api/market/developer/events: the caller's events after a given id (docs/design/events.md#types). */
export const listEvents = defineOperation({
  id: "listEvents",
  method: "GET",
  path: "/api/market/developer/events",
  access: "developer",
  envelope: "official",
  // The website reads the price alerts a user received with its session (docs/design/website.md#price-alerts).
  sessionToo: true,
  summary: "The caller's account events after a given id, oldest first, and whether more follow",
  description:
    "A client that was away reads on from the last id it saw and loses nothing: ids increase in the order the changes committed. Events are kept for `EVENT_RETENTION_DAYS` (30 by default). The website's session may read them too.",
  tags: ["Events"],
  querystring: EventsQuery,
  response: EventsPage,
});
