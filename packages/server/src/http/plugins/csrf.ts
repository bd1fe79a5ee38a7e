import type { FastifyReply, FastifyRequest } from "fastify";
import type { Failure } from "../../domain/result.ts";
import { constantTimeEqual, csrfTokenOf } from "../../domain/secrets.ts";

/** The cookie a page (or a tool) reads the token from, and the header it sends it back in. */
export const CSRF_COOKIE = "csrf_token";
export const CSRF_HEADER = "x-csrftoken";
/** The header the real service's mobile app sends on every request, and its values. */
export const APP_HEADER = "system-type";
export const APP_SYSTEM_TYPES: readonly string[] = ["Android", "iOS"];

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A write made with a session must carry the session's CSRF token in `X-CSRFToken`, as on the
 * real website: a page of another site can make the browser send the cookie, never read it.
 * The mobile app's writes carry `System-Type: Android` or `iOS` instead: a custom header is proof
 * enough (the custom-request-header defence), since a form cannot send one and a page of another
 * origin can only after a CORS preflight, which allows no `System-Type` (docs/design/security.md#cross-site-request-forgery).
 */
export function refuseForgedWrite(request: FastifyRequest, sessionId: string): Failure | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented === "string" && constantTimeEqual(presented, csrfTokenOf(sessionId))) return undefined;
  const system = request.headers[APP_HEADER];
  if (typeof system === "string" && APP_SYSTEM_TYPES.includes(system)) return undefined;
  // A System-Type of no known app proves nothing more than a missing one; say which was wrong.
  if (system !== undefined && presented === undefined) {
    return {
      code: "Access Denied",
      message: `${APP_HEADER}: ${JSON.stringify(String(system))} is not an app's (${APP_SYSTEM_TYPES.join(" or ")}); or send ${CSRF_HEADER} with the value of the ${CSRF_COOKIE} cookie`,
    };
  }
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
