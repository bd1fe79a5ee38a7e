import type { FastifyReply, FastifyRequest } from "fastify";
import type { Failure } from "../../domain/result.ts";
import { constantTimeEqual, csrfTokenOf } from "../../domain/secrets.ts";

/** The cookie a page (or a tool) reads the token from, and the header it sends it back in. */
export const CSRF_COOKIE = "csrf_token";
export const CSRF_HEADER = "x-csrftoken";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A write made with a session must carry the session's CSRF token in `X-CSRFToken`, as on the
 * real website: a page of another site can make the browser send the cookie, never read it.
 */
export function refuseForgedWrite(request: FastifyRequest, sessionId: string): Failure | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented === "string" && constantTimeEqual(presented, csrfTokenOf(sessionId))) return undefined;
  return {
    code: "Access Denied",
    message: `${CSRF_HEADER}: ${presented === undefined ? "missing" : "does not match this session"}; send the value of the ${CSRF_COOKIE} cookie`,
  };
}

/** Sets the `csrf_token` cookie of the session unless the request already carries it. */
export function offerCsrfCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  secure: boolean,
): void {
  const token = csrfTokenOf(sessionId);
  const header = request.headers.cookie;
  if (header && request.server.parseCookie(header)[CSRF_COOKIE] === token) return;
  // Readable by the page's scripts (not HttpOnly): reading it is the proof of being same-site.
  reply.setCookie(CSRF_COOKIE, token, { sameSite: "lax", secure, path: "/" });
}
