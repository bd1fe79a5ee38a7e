import type { FastifyReply, FastifyRequest } from "fastify";
import type { Failure } from "../../domain/result.ts";
import { constantTimeEqual, csrfTokenOf } from "../../domain/secrets.ts";
import { resolveStaffSession } from "../../domain/staff/sign-in-staff.ts";
import { CSRF_HEADER } from "./csrf.ts";

/**
 * The back office's own cookies (docs/design/back-office.md#staff-sign-in): a staff session is
 * apart from a user's (`session`) and from the sandbox admin token, so that a staff member signed
 * in to the market as a user is not staff there, and the reverse.
 */
export const STAFF_SESSION_COOKIE = "staff_session";
export const OPS_CSRF_COOKIE = "ops_csrf_token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function staffSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header)[STAFF_SESSION_COOKIE] : undefined;
}

/**
 * A `staff` route's caller: the live staff session of the cookie; a write also carries the
 * session's CSRF token in `X-CSRFToken` (no app-header exception: the back office is a page).
 * The role is checked by each verb against the one role table.
 */
export async function authorizeStaff(request: FastifyRequest): Promise<Failure | undefined> {
  const sessionId = staffSessionCookie(request);
  const resolved = await resolveStaffSession(request.ctx, sessionId);
  if (!resolved.ok) return resolved.failure;
  request.actor = { kind: "staff", staffId: resolved.value.staffId, role: resolved.value.role };
  if (SAFE_METHODS.has(request.method)) return undefined;
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented === "string" && constantTimeEqual(presented, csrfTokenOf(sessionId!)))
    return undefined;
  return {
    code: "Access Denied",
    message: `${CSRF_HEADER}: ${presented === undefined ? "missing" : "does not match this session"}; send the value of the ${OPS_CSRF_COOKIE} cookie`,
  };
}

/** Sets the staff session's cookies: the session HttpOnly, its CSRF token readable by the page. */
export function setStaffCookies(
  reply: FastifyReply,
  sessionId: string,
  maxAgeSeconds: number,
  secure: boolean,
): void {
  reply.setCookie(STAFF_SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/",
    maxAge: maxAgeSeconds,
  });
  reply.setCookie(OPS_CSRF_COOKIE, csrfTokenOf(sessionId), {
    sameSite: "strict",
    secure,
    path: "/",
    maxAge: maxAgeSeconds,
  });
}
