import type { FastifyRequest } from "fastify";

/**
 * The matched route's options (its config: access, envelope, operation, limits), read once per
 * request: Fastify's `routeOptions` getter builds a new object on every read, and several hooks of
 * every request ask for it.
 */
export function routeOf(request: FastifyRequest): FastifyRequest["routeOptions"] {
  return (request.route ??= request.routeOptions);
}
