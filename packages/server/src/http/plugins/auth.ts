import type { AccessLevel } from "@skinmarket/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import type { Failure } from "../../domain/result.ts";
import { constantTimeEqual } from "../../domain/secrets.ts";
import { resolveSession } from "../../domain/sessions/resolve-session.ts";
import {
  authenticateApiToken,
  cachedApiToken,
  type AuthenticatedToken,
} from "../../domain/tokens/authenticate-api-token.ts";
import { recordAudit, type AuditRecord } from "../../domain/audit.ts";
import { sendFailure } from "../failure.ts";
import type { RefusedCredentialLimit } from "../limits/refused-credentials.ts";
import { routeOf } from "../route-of.ts";
import { offerCsrfCookie, refuseForgedWrite } from "./csrf.ts";
import { authorizeStaff } from "./staff-auth.ts";

export const SESSION_COOKIE = "session";

/**
 * The `session` cookie the request carries. Cookies are read only by the routes that look for a
 * session (the cookie plugin parses none on its own, so that the API's requests skip it).
 */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header)[SESSION_COOKIE] : undefined;
}

export interface AuthOptions {
  baseContext: Omit<DomainContext, "actor" | "log">;
  sandboxAdminToken: string | undefined;
  /** The budget of refused credentials per client address; without it (`LIMITS=off`) none. */
  refusedCredentials?: RefusedCredentialLimit;
  /** Whether cookies set here (`csrf_token`) carry `Secure`. */
  secureCookies: boolean;
  /**
   * Origins besides the server's own whose pages may use the website session on routes that take
   * it in place of a token (`config.sessionToo`): `CORS_ORIGINS`, without `*`.
   */
  sessionOrigins?: readonly string[];
}

/**
 * Every route declares who may call it (`config.access`, from the contract's operation); this
 * plugin enforces it before the body is parsed, so an anonymous caller learns nothing from
 * validation errors. A route without a declaration stops the start (and fails closed if reached).
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const routes: RouteOptions[] = [];
  app.addHook("onRoute", (route) => {
    routes.push(route);
  });
  app.addHook("onReady", async () => {
    const undeclared = routes
      .filter((route) => !route.config?.access)
      .map((route) => `${route.method} ${route.url}`);
    if (undeclared.length > 0) throw new Error(`routes without an access level: ${undeclared.join(", ")}`);
  });

  app.decorateRequest("actor", null as never);
  app.decorateRequest("ctx", null as never);

  // Synchronous while the answer is at hand (public routes, tokens in the token cache), so that
  // most requests never wait on a promise here.
  app.addHook("onRequest", (request, reply, done) => {
    request.actor = { kind: "anonymous" };
    request.ctx = {
      ...options.baseContext,
      actor: request.actor,
      log: request.log,
      requestId: request.id,
      effects: { committed: 0 },
    };
    const config = routeOf(request).config;
    if (!config || request.is404) return done();
    const settle = (refusal: Failure | undefined) => {
      request.ctx.actor = request.actor;
      if (refusal) refuse(request, reply, refusal);
      else {
        const sessionId = request.sessionUser ? sessionCookie(request) : undefined;
        if (sessionId) {
          resendSessionCookie(request, reply, sessionId, options.secureCookies);
          offerCsrfCookie(request, reply, sessionId, options.secureCookies);
        }
        done();
      }
    };
    const refusal = authorize(request, config.access, options);
    if (refusal instanceof Promise) refusal.then(settle, done);
    else settle(refusal);
  });
}

/** Who the caller is and whether they may call the route: a refusal, or undefined to go on. */
function authorize(
  request: FastifyRequest,
  access: AccessLevel | undefined,
  options: AuthOptions,
): Failure | undefined | Promise<Failure | undefined> {
  switch (access) {
    case "public":
      return undefined;
    case "developer":
    case "enterprise": {
      if (
        request.headers.authorization === undefined &&
        routeOf(request).config?.sessionToo &&
        sessionCookie(request) !== undefined
      )
        return admitSessionOfKnownOrigin(request, options);
      const cached = cachedApiToken(request.ctx, request.headers.authorization);
      if (cached) return admitToken(request, access, cached);
      return authenticateApiToken(request.ctx, request.headers.authorization).then((authenticated) =>
        authenticated.ok
          ? admitToken(request, access, authenticated.value)
          : refuseCredential(request, authenticated.failure, authenticated.audit, options),
      );
    }
    default:
      return authorizeOther(request, access, options);
  }
}

function admitToken(
  request: FastifyRequest,
  access: "developer" | "enterprise",
  token: AuthenticatedToken,
): Failure | undefined {
  request.actor = { kind: "user", userId: token.userId };
  request.tokenId = token.tokenId;
  const level = token.accessLevel;
  const allowed =
    access === "enterprise" ? level === "enterprise" : level === "developer" || level === "enterprise";
  if (!allowed) {
    return {
      code: "Access Denied",
      message: `this operation needs ${access} access; this account has ${level}`,
    };
  }
  return undefined;
}

/**
 * The website session in place of a token (the event stream, and the developer operations the
 * website shows: `sessionToo`): only from a page of the server's own origin or of `CORS_ORIGINS`.
 * A browser sends the cookie with a WebSocket opened by any site's page (cross-site WebSocket
 * hijacking), so the stream needs an `Origin`; a plain request may come without one (a browser
 * sends none on a same-origin GET), as another site's page cannot read the answer and the cookie
 * (`SameSite=Lax`) does not go with its writes; writes also need the CSRF token. Checked before
 * the session is looked up.
 */
async function admitSessionOfKnownOrigin(
  request: FastifyRequest,
  options: AuthOptions,
): Promise<Failure | undefined> {
  const origin = request.headers.origin;
  const own = `${request.protocol}://${request.host}`;
  const webSocket = request.headers.upgrade?.toLowerCase() === "websocket";
  if (
    (origin === undefined && webSocket) ||
    (origin !== undefined && origin !== own && !(options.sessionOrigins ?? []).includes(origin))
  ) {
    return {
      code: "Access Denied",
      message: `origin: ${origin === undefined ? "missing" : JSON.stringify(origin)}; the website session is taken only from the server's own origin or one of CORS_ORIGINS (or send Authorization: Bearer <token>)`,
    };
  }
  const resolved = await resolveSession(request.ctx, sessionCookie(request));
  if (!resolved.ok) return resolved.failure;
  request.actor = { kind: "user", userId: resolved.value.userId };
  request.sessionUser = resolved.value;
  return refuseForgedWrite(request, sessionCookie(request)!);
}

async function authorizeOther(
  request: FastifyRequest,
  access: AccessLevel | undefined,
  options: AuthOptions,
): Promise<Failure | undefined> {
  switch (access) {
    case "session": {
      const resolved = await resolveSession(request.ctx, sessionCookie(request));
      if (!resolved.ok) return resolved.failure;
      request.actor = { kind: "user", userId: resolved.value.userId };
      request.sessionUser = resolved.value;
      return refuseForgedWrite(request, sessionCookie(request)!);
    }
    case "sandbox_admin": {
      const presented = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? "")?.[1];
      if (
        !options.sandboxAdminToken ||
        !presented ||
        !constantTimeEqual(presented, options.sandboxAdminToken)
      ) {
        // Refusals of a presented credential are audited; a request that presents nothing is not.
        return refuseCredential(
          request,
          {
            code: "Unauthorized",
            message: "the sandbox API needs Authorization: Bearer <sandbox admin token>",
          },
          presented
            ? {
                action: "auth.refused",
                details: { reason: "sandbox admin token", path: request.url.split("?", 1)[0] },
              }
            : undefined,
          options,
        );
      }
      request.actor = { kind: "admin" };
      return undefined;
    }
    case "staff":
      return authorizeStaff(request);
    default:
      return { code: "Access Denied", message: "this route declares no access level" };
  }
}

/**
 * A refused credential is audited while its client address has refusals left in its budget;
 * beyond it the answer is 429 and nothing is written (docs/design/security.md#security).
 */
async function refuseCredential(
  request: FastifyRequest,
  failure: Failure,
  audit: AuditRecord | undefined,
  options: AuthOptions,
): Promise<Failure> {
  if (!audit) return failure;
  const waitSeconds = await options.refusedCredentials?.take(request.ip);
  if (waitSeconds !== undefined) {
    return {
      code: "Rate Limit Exceeded",
      message: `too many refused credentials from this address; retry after ${waitSeconds} s`,
      retryAfterSeconds: waitSeconds,
    };
  }
  await recordAudit(request.ctx, audit);
  return failure;
}

/**
 * Every signed-in answer sets the `session` cookie again, same value and end, as the real
 * website does: a client that keeps only the cookies answers set (BuffApi sends its cookie on its
 * first request alone) stays signed in. The session's end does not move.
 */
function resendSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  secure: boolean,
): void {
  const remainingMs = request.sessionUser!.expiresAt.getTime() - request.ctx.clock.now().getTime();
  reply.setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.max(1, Math.floor(remainingMs / 1000)),
  });
}

function refuse(request: FastifyRequest, reply: FastifyReply, failure: Failure): FastifyReply {
  if (failure.code === "Unauthorized") reply.header("www-authenticate", 'Bearer realm="skinmarket"');
  return sendFailure(reply, routeOf(request).config?.envelope ?? "official", failure);
}

/** The credential a long-lived connection (the event stream) was opened with, for checking it again. */
export type HeldCredential =
  { kind: "token"; authorization: string } | { kind: "session"; sessionId: string };

/** The credential the auth hook admitted `request` with. */
export function heldCredential(request: FastifyRequest): HeldCredential {
  const sessionId = request.sessionUser ? sessionCookie(request) : undefined;
  return sessionId !== undefined
    ? { kind: "session", sessionId }
    : { kind: "token", authorization: request.headers.authorization ?? "" };
}

/**
 * Whether a held credential still admits its user: the token not revoked (the token cache is
 * emptied on every revocation, on every instance), the session neither signed out nor expired.
 */
export async function credentialHolds(
  ctx: DomainContext,
  credential: HeldCredential,
  userId: number,
): Promise<boolean> {
  if (credential.kind === "session") {
    const resolved = await resolveSession(ctx, credential.sessionId);
    return resolved.ok && resolved.value.userId === userId;
  }
  const token =
    cachedApiToken(ctx, credential.authorization) ??
    (await authenticateApiToken(ctx, credential.authorization).then((answer) =>
      answer.ok ? answer.value : undefined,
    ));
  return token !== undefined && token.userId === userId;
}
