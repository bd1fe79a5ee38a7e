import type { FastifyRequest } from "fastify";
import { ok, type Result } from "../../../domain/result.ts";
import { resolveSession } from "../../../domain/sessions/resolve-session.ts";
import type { VisitorSearchLimit } from "../../limits/visitor-searches.ts";
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
 * The viewer of a route anyone may call that refuses an ended session: a request that presents a
 * `session` cookie whose session has ended is `Login Required`, one without a cookie is a visitor
 * (undefined). Tools probe their cookie on `search/suggest` (200 alive, anything else dead;
 * docs/design/website-goods-routes.md#the-websites-market-data-routes), so a dead cookie is not taken for a visitor there.
 */
export async function viewerOrEnded(request: FastifyRequest): Promise<Result<number | undefined>> {
  if (request.actor.kind === "user") return ok(request.actor.userId);
  if (sessionCookie(request) === undefined) return ok(undefined);
  const session = await resolveSession(request.ctx, sessionCookie(request));
  return session.ok ? ok(session.value.userId) : session;
}

/**
 * A visitor's catalog page or suggestions beyond the address's budget (`VisitorSearchLimit`,
 * absent with `LIMITS=off`): the 429 refusal; signed-in viewers are not counted.
 */
export async function visitorOverBudget(
  request: FastifyRequest,
  limit: VisitorSearchLimit | undefined,
  viewerId: number | undefined,
): Promise<Result<never> | undefined> {
  if (viewerId !== undefined || !limit) return undefined;
  const refusal = await limit.take(request.ip);
  return refusal ? { ok: false, failure: refusal } : undefined;
}
