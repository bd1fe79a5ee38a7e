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
