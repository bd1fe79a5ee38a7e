import { listEvents as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import type { EventLog } from "../../../domain/events/event-log.ts";
import { listEvents } from "../../../domain/events/read-events.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerListEvents(app: FastifyInstance, eventLog: EventLog): void {
  registerOperation(app, operation, ({ ctx, query }) => listEvents(ctx, query, eventLog));
}
