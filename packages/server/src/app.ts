import "./http/types.ts";
import { randomUUID } from "node:crypto";
import cookie from "@fastify/cookie";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { OffsetClock } from "./domain/clock.ts";
import type { TrustProxy } from "./config.ts";
import { decoyPasswordHash } from "./domain/password-hash.ts";
import { answerClientError } from "./http/client-errors.ts";
import { EnvelopeTable } from "./http/envelope-table.ts";
import { sendFailure } from "./http/failure.ts";
import { registerAuth } from "./http/plugins/auth.ts";
import { RouteSchemaCompilers } from "./http/plugins/schema-compilers.ts";
import { registerErrorHandling, type MissingPages } from "./http/plugins/errors.ts";
import { registerJsonBodies } from "./http/plugins/json-body.ts";
import { registerMetrics } from "./http/plugins/metrics.ts";
import { registerBatchedWrites } from "./http/plugins/batched-writes.ts";
import { registerLimits, type LimitSettings } from "./http/plugins/limits.ts";
import { registerIdempotency } from "./http/plugins/idempotency.ts";
import type { LimiterStore } from "./http/limits/limiter-store.ts";
import { registerCors } from "./http/plugins/cors.ts";
import { registerPrivateAnswers } from "./http/plugins/private-answers.ts";
import { registerFailureLogging, RequestLogController } from "./http/plugins/request-logging.ts";
import { registerOpenApi } from "./http/plugins/openapi.ts";
import { registerRoutes } from "./http/routes/register-routes.ts";
import type { SteamOpenIdSettings } from "./http/steam-openid/check-authentication.ts";
import { STEAM_OPENID_ENDPOINT } from "./domain/sessions/steam-openid-assertion.ts";
import { createRuntime, type RuntimeDeps } from "./runtime.ts";
import websocket from "@fastify/websocket";
import { registerEventStream } from "./http/routes/developer/event-stream.ts";
import { EventStreamHub } from "./http/stream/event-stream-hub.ts";
import { DEFAULT_STREAM_SETTINGS, type StreamSettings } from "./http/stream/stream-settings.ts";
import { registerSystemRoutes } from "./http/routes/system/system-routes.ts";
import { registerWebsite } from "./http/plugins/website.ts";

export interface AppDeps extends RuntimeDeps {
  /** Present when the sandbox is on: its API is registered and moves this clock. */
  sandbox?: {
    clock: OffsetClock;
    adminToken: string;
    /** Resume a simulation saved as running (the server, at its start: docs/design/simulation.md#the-living-sandbox). */
    resumeSimulation?: boolean;
    /** The user's scenario files (`SCENARIOS_DIR`); without it only the built-in ones run by name. */
    scenariosFolder?: string;
  };
  sessionTtlSeconds?: number;
  secureCookies?: boolean;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** The reference's limits per token; absent only with `LIMITS=off`. */
  limits?: { store: LimiterStore; settings: LimitSettings };
  /** Origins browser pages may call from (`CORS_ORIGINS`, `*` for any); none: CORS is off. */
  corsOrigins?: readonly string[];
  /** The website: where its build is (default `packages/web/dist`) and the item images' base URL. */
  website?: { root?: string; imageBaseUrl?: string | undefined };
  /** The event stream's heartbeat and slow-consumer limit (`STREAM_MAX_BUFFER_BYTES`). */
  stream?: Partial<StreamSettings>;
  /**
   * Which peers' `X-Forwarded-For` gives `request.ip` (`TRUST_PROXY`); default none: the
   * connection's peer is the client (docs/design/security.md#security).
   */
  trustProxy?: TrustProxy;
  /** "Sign in through Steam": the endpoint (default Steam's) and how Steam's names are reached. */
  steamOpenId?: SteamOpenIdSettings;
}

/**
 * The largest message a stream client may send (a larger one closes the stream with 1009): a
 * subscription to 100 channels with 100 type patterns fits, and the messages waiting while one is
 * handled are few of these (docs/design/event-stream.md#inbound, inbound).
 */
const STREAM_MAX_MESSAGE_BYTES = 16 * 1024;

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/** Secrets never reach the logs (docs/design/security.md#webhook-receivers-and-secrets). */
export const LOG_REDACTIONS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  ...["password", "token", "platform_cookies", "cookies"].flatMap((field) => [field, `*.${field}`]),
];

/**
 * Builds the HTTP application without listening: `main.ts` listens, tests call `app.inject()`.
 * The caller owns the database handle; closing the app does not close it.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const routeSchemas = new RouteSchemaCompilers();
  // The envelope of answers made before routing: it follows the routes as they are registered.
  const envelopes = new EnvelopeTable();
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: routeSchemas.serializerFactory } },
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // `request.ip` is the address every per-address rule reads (the sign-in throttle, refused
    // credentials, the logs): the proxy's forwarded one only from the proxies configured.
    trustProxy: deps.trustProxy ?? false,
    requestIdHeader: false,
    // Probes at debug; an error answer's line with its code and message.
    logController: new RequestLogController(),
    // What Node's HTTP parser refuses (an URL over 16 KiB) gets the same error model.
    clientErrorHandler: (error, socket) => answerClientError(error, socket, envelopes),
    // A path parameter of any length the 16 KiB request line allows reaches its schema, which
    // names it; the router's default (100) would answer a longer one as a malformed URL. Its
    // guard is for regular-expression parameters, which no route has.
    // The real website answers `/api/asset/get_brief_asset/` as without the slash, and tools
    // written for it call both.
    routerOptions: { maxParamLength: 16 * 1024, ignoreTrailingSlash: true },
    // Requests Fastify refuses before routing (a malformed URL) get the same error model.
    frameworkErrors: (_error, request, reply) => {
      reply.header("x-request-id", request.id);
      sendFailure(reply, envelopes.of(request.method, request.url), {
        code: "Invalid Argument",
        message: "path: not a valid URL (check its percent-encoding)",
      });
    },
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  envelopes.follow(app);
  app.setValidatorCompiler(routeSchemas.validatorCompiler);
  app.decorate("routeSchemas", routeSchemas);

  // Set first, so that every answer carries it, refusals and errors included. The hooks on every
  // request are synchronous where they have nothing to wait for: an async hook costs a promise
  // and a turn of the microtask queue per request (docs/design/performance.md#the-work-of-every-request).
  app.decorateRequest("route", null as never);
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  registerFailureLogging(app);
  // Before the auth plugin: its hooks mark an upgrade request first, so that a refused upgrade's
  // socket is closed after the refusal is written. The server's close() closes the streams (1001)
  // before it stops listening.
  const streams: { hub?: EventStreamHub } = {};
  await app.register(websocket, {
    options: { maxPayload: STREAM_MAX_MESSAGE_BYTES },
    preClose: async () => {
      await streams.hub?.close();
      app.websocketServer.close();
    },
  });
  await registerCors(app, deps.corsOrigins ?? []);

  // The decoy hash that makes unknown-nickname logins cost as much as wrong passwords is ready
  // before the first login, so that the first one does not stand out.
  await decoyPasswordHash();
  // Parsed only where a session is looked for (`sessionCookie`); setting cookies works everywhere.
  await app.register(cookie, { hook: false });
  registerJsonBodies(app);
  // The website answers an unknown page's address once it is registered (below).
  const missingPages: MissingPages = {};
  registerErrorHandling(app, envelopes, missingPages);
  const runtime = createRuntime(deps, app.log);
  app.addHook("onClose", () => runtime.close());
  registerAuth(app, {
    baseContext: runtime.baseContext,
    sandboxAdminToken: deps.sandbox?.adminToken,
    secureCookies: deps.secureCookies ?? false,
    sessionOrigins: (deps.corsOrigins ?? []).filter((origin) => origin !== "*"),
    ...(runtime.refusedCredentials ? { refusedCredentials: runtime.refusedCredentials } : {}),
  });
  if (deps.limits) registerLimits(app, deps.limits.store, deps.limits.settings);
  registerIdempotency(app);
  // After the cookie plugin's `onSend` hook, which writes the cookies it reads.
  registerPrivateAnswers(app);
  // After every other plugin that adds `onSend` hooks to routes: its hook goes last.
  registerBatchedWrites(app);
  const metrics = registerMetrics(app);
  await registerOpenApi(app, { sandbox: deps.sandbox !== undefined });
  registerSystemRoutes(app, { metrics });
  missingPages.answer = (
    await registerWebsite(app, { ...deps.website, sandbox: deps.sandbox !== undefined })
  ).answer;
  // The event stream: one hub listens to the log for every connection of this instance.
  const hub = new EventStreamHub(runtime.eventLog, { ...DEFAULT_STREAM_SETTINGS, ...deps.stream });
  streams.hub = hub;
  app.decorate("eventStreams", hub);
  metrics.gauge("skinmarket_event_streams", "Open event streams (WebSocket connections)", () => hub.size);
  registerEventStream(app, hub);
  registerRoutes(app, runtime, {
    sessionTtlSeconds: deps.sessionTtlSeconds ?? 7 * 24 * 3600,
    secureCookies: deps.secureCookies ?? false,
    scenariosFolder: deps.sandbox?.scenariosFolder,
    steamOpenId: deps.steamOpenId ?? { endpoint: STEAM_OPENID_ENDPOINT },
  });
  await app.ready();
  // A simulation saved as running goes on (docs/design/simulation.md#the-living-sandbox).
  if (deps.sandbox?.resumeSimulation) await runtime.simulation?.resume();
  return app;
}
