import type { AccessLevel } from "@skinmarket/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import type { Failure } from "../../domain/result.ts";
import { constantTimeEqual } from "../../domain/secrets.ts";
import { resolveSession } from "../../domain/sessions/resolve-session.ts";
import { authenticateApiToken } from "../../domain/tokens/authenticate-api-token.ts";
import { recordAudit } from "../../domain/audit.ts";
import { sendFailure } from "../failure.ts";

export const SESSION_COOKIE = "session";

export interface AuthOptions {
  baseContext: Omit<DomainContext, "actor" | "log">;
  sandboxAdminToken: string | undefined;
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

  app.addHook("onRequest", async (request, reply) => {
    request.actor = { kind: "anonymous" };
    request.ctx = {
      ...options.baseContext,
      actor: request.actor,
      log: request.log,
      requestId: request.id,
      effects: { committed: 0 },
    };
    const config = request.routeOptions.config;
    if (!config || request.is404) return;
    const refusal = await authorize(request, config.access, options);
    request.ctx = { ...request.ctx, actor: request.actor };
    if (refusal) return refuse(request, reply, refusal);
  });
}

async function authorize(
  request: FastifyRequest,
  access: AccessLevel | undefined,
  options: AuthOptions,
): Promise<Failure | undefined> {
  switch (access) {
    case "public":
      return undefined;
    case "developer":
    case "enterprise": {
      const authenticated = await authenticateApiToken(request.ctx, request.headers.authorization);
      if (!authenticated.ok) return authenticated.failure;
      request.actor = { kind: "user", userId: authenticated.value.userId };
      request.tokenId = authenticated.value.tokenId;
      const level = authenticated.value.accessLevel;
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
    case "session": {
      const resolved = await resolveSession(request.ctx, request.cookies[SESSION_COOKIE]);
      if (!resolved.ok) return resolved.failure;
      request.actor = { kind: "user", userId: resolved.value.userId };
      request.sessionUser = resolved.value;
      return undefined;
    }
    case "sandbox_admin": {
      const presented = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? "")?.[1];
      if (
        !options.sandboxAdminToken ||
        !presented ||
        !constantTimeEqual(presented, options.sandboxAdminToken)
      ) {
        // Refusals of a presented credential are audited; a request that presents nothing is not.
        if (presented) {
          await recordAudit(request.ctx, {
            action: "auth.refused",
            details: { reason: "sandbox admin token", path: request.url },
          });
        }
        return {
          code: "Unauthorized",
          message: "the sandbox API needs Authorization: Bearer <sandbox admin token>",
        };
      }
      request.actor = { kind: "admin" };
      return undefined;
    }
    default:
      return { code: "Access Denied", message: "this route declares no access level" };
  }
}

function refuse(request: FastifyRequest, reply: FastifyReply, failure: Failure): FastifyReply {
  if (failure.code === "Unauthorized") reply.header("www-authenticate", 'Bearer realm="skinmarket"');
  return sendFailure(reply, request.routeOptions.config?.envelope ?? "official", failure);
}
