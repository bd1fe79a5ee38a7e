import type { AccessLevel, Envelope, OperationLimits } from "@skinmarket/contract";
import type { Actor, DomainContext } from "../domain/context.ts";
import type { SessionUser } from "../domain/sessions/resolve-session.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The event streams of this instance (`/api/market/developer/stream`). */
    eventStreams: import("./stream/event-stream-hub.ts").EventStreamHub;
    /** The routes' schema compilers: each schema is compiled when its route first needs it. */
    routeSchemas: import("./plugins/schema-compilers.ts").RouteSchemaCompilers;
  }
  interface FastifyContextConfig {
    /** Who may call the route: declared once per route, checked by the auth plugin. */
    access?: AccessLevel;
    envelope?: Envelope;
    /** The contract operation the route serves, and its limits. */
    operationId?: string;
    limits?: OperationLimits;
    readOnly?: boolean;
    /**
     * A developer route that also takes the website session when no Authorization header is
     * sent, from a page of an allowed origin (the event stream).
     */
    sessionToo?: boolean;
  }
  interface FastifyRequest {
    /** The matched route's options once read (`routeOf`). */
    route?: FastifyRequest["routeOptions"] | null;
    actor: Actor;
    /** The domain context of this request: database, clock, actor, logger, request id. */
    ctx: DomainContext;
    /** The signed-in user, once the auth plugin has resolved the session of a `session` route. */
    sessionUser?: SessionUser;
    /** The API token that authenticated the request, for limits per token. */
    tokenId?: number;
    /** What is left of the token's daily allowance for this operation, for `req_remaining`. */
    requestsRemaining?: number;
  }
}

export {};
