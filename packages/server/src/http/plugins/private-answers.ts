import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sessionCookie } from "./auth.ts";

/**
 * Answers that may carry a user's records are never kept by a cache, shared or the browser's
 * (docs/design/security.md#headers-that-keep-answers-out-of-caches-and-pages-out-of-frames). One rule, decided here for every route: an answer is
 * `Cache-Control: no-store` when its request presents a credential (`Authorization`, an API token
 * or the sandbox admin token, or the website's `session` cookie), refused or not, or when the
 * answer sets a cookie (sign-in, sign-out), unless its route states a policy of its own: only
 * answers that carry no user records do (the market data prebuilt for everyone, `private,
 * no-cache` and revalidated by ETag; the website's page HTML, `no-cache` for a visitor, while a
 * signed-in visitor's page, which names them, states `no-store` itself).
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (!reply.hasHeader("cache-control") && (presentsCredential(request) || setsCookie(reply)))
      reply.header("cache-control", "no-store");
    done(null, payload);
  });
}

function presentsCredential(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined ||
    (request.headers.cookie !== undefined && sessionCookie(request) !== undefined)
  );
}

function setsCookie(reply: FastifyReply): boolean {
  return reply.hasHeader("set-cookie");
}
