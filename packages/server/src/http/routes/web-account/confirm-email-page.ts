import type { FastifyRequest } from "fastify";

/**
 * The website's page a confirmation link opens, on the origin the request came to (with
 * `TRUST_PROXY`, the public one), as Steam's `return_to` is built.
 */
export function confirmEmailPage(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/confirm-email`;
}
