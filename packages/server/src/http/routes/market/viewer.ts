import type { FastifyRequest } from "fastify";
import { resolveSession } from "../../../domain/sessions/resolve-session.ts";
import { sessionCookie } from "../../plugins/auth.ts";

/**
 * The signed-in user looking at an anonymous website page, if any: the page answers the same
 * for everyone except the viewer's own marks (`bookmarked`). A missing or ended session is an
 * anonymous viewer, never a refusal (docs/design/website-goods-routes.md#the-websites-market-data-routes).
 */
export async function viewerOf(request: FastifyRequest): Promise<number | undefined> {
  if (request.actor.kind === "user") return request.actor.userId;
  const session = await resolveSession(request.ctx, sessionCookie(request));
  return session.ok ? session.value.userId : undefined;
}

/**
 * Whether a route anyone may call refuses the caller: a request that presents a `session` cookie
 * whose session has ended is `Login Required`, one without a cookie is a visitor. Tools probe
 * their cookie on `search/suggest` (200 alive, anything else dead;
 * docs/design/website-goods-routes.md#the-name-search), so a dead cookie is not taken for a visitor there.
 */
export async function refusedEndedSession(request: FastifyRequest) {
  if (request.actor.kind === "user" || sessionCookie(request) === undefined) return undefined;
  const session = await resolveSession(request.ctx, sessionCookie(request));
  return session.ok ? undefined : session;
}
