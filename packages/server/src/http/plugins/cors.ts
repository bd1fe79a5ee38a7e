import cors from "@fastify/cors";
import { OPERATIONS } from "@skinmarket/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";

/** What a browser page may send and read (docs/design/security.md#cross-origin-requests). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"];
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-CSRFToken", "X-Request-Id"];
const EXPOSED_HEADERS = [
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Retry-After",
  "X-Request-Id",
  "Idempotent-Replayed",
];
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The website's routes: the only ones that read the `session` cookie (envelope `internal`). */
const WEBSITE_PATHS: ReadonlySet<string> = new Set<string>(
  OPERATIONS.filter((operation) => operation.envelope === "internal").map((operation) => operation.path),
);

/**
 * Cross-origin access for browser pages (`CORS_ORIGINS`), off unless configured: without origins
 * nothing is registered, no answer carries a CORS header and `OPTIONS` is answered 404 like any
 * path without a route. An origin not on the list gets no CORS header either, and its preflight
 * is 404. `*` lets any page call with an API token but never with cookies; a listed origin may
 * send the website session's cookies to the website routes, and only there.
 * Registered before the auth plugin, so that a preflight (which carries no credentials) is
 * answered before anything asks for them.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const anyOrigin = origins.includes("*");
  // The route @fastify/cors adds for preflights, declared public like every route (auth plugin).
  app.addHook("onRoute", (route) => {
    if (route.method === "OPTIONS" && route.url === "*")
      route.config = { ...route.config, access: "public", envelope: "official" };
  });
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => {
      const origin = request.headers.origin;
      if (origin === undefined || !(anyOrigin || origins.includes(origin)))
        return callback(null, { origin: false });
      callback(null, {
        origin: anyOrigin ? "*" : origin,
        credentials: !anyOrigin && WEBSITE_PATHS.has(pathOf(request.url)),
        methods: METHODS,
        allowedHeaders: ALLOWED_HEADERS,
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      });
    },
  });
}

/** The path without its query and trailing slash (the router ignores a trailing slash). */
function pathOf(url: string): string {
  const path = url.split("?")[0]!;
  return path.length > 1 ? path.replace(/\/$/, "") : path;
}
