import { createHash } from "node:crypto";
import { isWrite, takesIdempotencyKey, type Envelope } from "@skinmarket/contract";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from "fastify";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  KEY_LEASE_MS,
  releaseIdempotencyKey,
  renewKeyLease,
  STOPPED_AFTER_EFFECTS,
} from "../../domain/idempotency-keys.ts";
import type { HeldKey } from "../../domain/context.ts";
import { sendFailure } from "../failure.ts";
import { routeOf } from "../route-of.ts";
import { hooksOf } from "../route-hooks.ts";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module "fastify" {
  interface FastifyRequest {
    /** The claimed `Idempotency-Key` of this request, whose answer is stored when it is sent. */
    idempotency?: { held: HeldKey; heartbeat: NodeJS.Timeout };
  }
}

/**
 * Writes accept an `Idempotency-Key` header (docs/design/wire-conventions.md#idempotent-writes), whatever their envelope:
 * per user (the same for the user's tokens and website sessions), the first answer is stored for
 * 24 hours and replayed, marked `Idempotent-Replayed: true`; the same key with another request is
 * 422 `Idempotency Key Reused`; while the first is still running, a duplicate is 409 `Invalid
 * State`, so a write never runs twice. Failures are said in the route's own envelope. Runs after
 * authentication, validation and the rate limits. A 5xx is never stored: it frees the key when
 * the request committed nothing, else the key answers that changes were committed. A running
 * request holds its key under a lease it renews (docs/design/recovery.md#an-idempotency-keys-life-when-its-request-dies): a retry takes over
 * the key of a request that died. A write without a user to keep the key for (sign-in, the
 * sandbox admin) refuses a key with 400 rather than ignore it.
 */
export function registerIdempotency(app: FastifyInstance): void {
  // Only the routes that take a key carry the hooks, so that reads pay nothing for them; a write
  // sent without a key goes straight on (no promise to wait for).
  app.addHook("onRoute", (route) => {
    const config = route.config;
    if (!config?.operationId || !config.access || typeof route.method !== "string") return;
    const operation = { method: route.method, access: config.access, readOnly: config.readOnly ?? false };
    if (takesIdempotencyKey(operation)) {
      route.preHandler = [...hooksOf(route.preHandler), claimHook];
      route.onSend = [...hooksOf(route.onSend), settleHook];
    } else if (isWrite(operation)) route.preHandler = [...hooksOf(route.preHandler), refuseKeyHook];
  });
}

const refuseKeyHook: preHandlerHookHandler = (request, reply, done) => {
  if (request.headers["idempotency-key"] === undefined) return done();
  sendFailure(reply, envelopeOf(request), {
    code: "Invalid Argument",
    message:
      "Idempotency-Key: not taken by this operation, which has no user to keep the key for; send it without the header",
  });
};

const claimHook: preHandlerHookHandler = (request, reply, done) => {
  const header = request.headers["idempotency-key"];
  if (header === undefined) return done();
  claimKey(request, reply, header, routeOf(request).config?.operationId).then((answered) => {
    if (!answered) done();
  }, done);
};

function envelopeOf(request: FastifyRequest): Envelope {
  return routeOf(request).config?.envelope ?? "official";
}

const settleHook: onSendHookHandler = (request, reply, payload, done) => {
  const claimed = request.idempotency;
  if (!claimed) return done(null, payload);
  request.idempotency = undefined;
  settleKey(request, reply, claimed, payload).then(() => done(null, payload), done);
};

/**
 * Claims the request's key, or answers for it (a replay, a duplicate in flight, a key reused):
 * true when the request has been answered here.
 */
async function claimKey(
  request: FastifyRequest,
  reply: FastifyReply,
  header: string | string[],
  operationId: string | undefined,
): Promise<boolean> {
  const envelope = envelopeOf(request);
  if (typeof header !== "string" || !KEY_PATTERN.test(header)) {
    sendFailure(reply, envelope, {
      code: "Invalid Argument",
      message: "Idempotency-Key: must be 1 to 255 printable characters without spaces",
    });
    return true;
  }
  // Routes that take a key are user routes, which authenticated a user before this hook.
  if (request.actor.kind !== "user") throw new Error("an Idempotency-Key route ran without a user");
  const userId = request.actor.userId;
  const requestHash = idempotencyRequestHash(request.method, request.url, request.body);
  const claim = await claimIdempotencyKey(request.ctx, {
    userId,
    key: header,
    operationId: operationId ?? routeOf(request).url ?? "",
    requestHash,
  });
  switch (claim.kind) {
    case "claimed": {
      const held = claim.held;
      // Each commit of the request is counted on its key, inside the commit's transaction.
      if (request.ctx.effects) request.ctx.effects.key = held;
      const heartbeat = setInterval(() => {
        renewKeyLease(request.ctx, held).then(
          (renewed) => {
            if (!renewed) clearInterval(heartbeat);
          },
          (error: unknown) => request.log.warn({ err: error }, "could not renew an idempotency key's lease"),
        );
      }, KEY_LEASE_MS / 3);
      heartbeat.unref();
      request.idempotency = { held, heartbeat };
      return false;
    }
    case "replay":
      // Stored by the domain in no route's envelope: said in this route's.
      if (claim.body === STOPPED_AFTER_EFFECTS.body) {
        reply.header("idempotent-replayed", "true");
        sendFailure(reply, envelope, STOPPED_AFTER_EFFECTS.failure);
        return true;
      }
      reply
        .code(claim.statusCode)
        .header("idempotent-replayed", "true")
        .type("application/json; charset=utf-8")
        .send(claim.body);
      return true;
    case "in progress":
      sendFailure(reply, envelope, {
        code: "Invalid State",
        message: "a request with this Idempotency-Key is still being answered; retry shortly",
      });
      return true;
    case "reused":
      sendFailure(reply, envelope, {
        code: "Idempotency Key Reused",
        message: "Idempotency-Key: already used for another request in the last 24 hours",
      });
      return true;
  }
}

/**
 * Stores the answer of a claimed key. A failure inside the service that changed nothing may be
 * retried afresh; one after a commit keeps an answer saying so (never the 500 itself), so that a
 * retry cannot repeat what was done and is not told to retry.
 */
async function settleKey(
  request: FastifyRequest,
  reply: FastifyReply,
  claimed: { held: HeldKey; heartbeat: NodeJS.Timeout },
  payload: unknown,
): Promise<void> {
  clearInterval(claimed.heartbeat);
  if (reply.statusCode >= 500) await releaseIdempotencyKey(request.ctx, claimed.held);
  else
    await completeIdempotencyKey(request.ctx, {
      ...claimed.held,
      statusCode: reply.statusCode,
      body: typeof payload === "string" ? payload : JSON.stringify(payload ?? null),
    });
}

/** What makes two requests with one key the same request: method, URL and body, keys sorted. */
export function idempotencyRequestHash(method: string, url: string, body: unknown): string {
  return createHash("sha256")
    .update(canonicalJson({ method, url, body: body ?? null }))
    .digest("hex");
}

/** JSON with object keys sorted, so that the same request hashes the same however it was written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
