import { ERROR_HTTP_STATUS, type Envelope, type ErrorCode } from "@skinmarket/contract";
import type { FastifyReply } from "fastify";
import type { Failure } from "../domain/result.ts";

/** Thrown by route helpers to hand a domain failure to the one error renderer. */
export class HttpFailure extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  readonly failure: Failure;
  constructor(failure: Failure, extra: Record<string, unknown> = {}) {
    super(failure.message);
    this.code = failure.code;
    this.failure = failure;
    this.extra = extra;
  }
}

/**
 * Renders a failure in the envelope of the route it happened on (docs/design/wire-conventions.md#wire-conventions):
 * official and sandbox routes `{code, msg}`, internal routes `{code, error, extra}`.
 */
export function sendFailure(
  reply: FastifyReply,
  envelope: Envelope,
  failure: Failure,
  extra: Record<string, unknown> = {},
): FastifyReply {
  if (failure.retryAfterSeconds !== undefined)
    reply.header("retry-after", String(Math.max(1, Math.ceil(failure.retryAfterSeconds))));
  return reply
    .code(ERROR_HTTP_STATUS[failure.code])
    .type("application/json; charset=utf-8")
    .send(failureBody(envelope, failure, extra));
}

/** The body of a failure in an envelope: `{code, msg}`, or `{code, error, extra}` on internal routes. */
export function failureBody(envelope: Envelope, failure: Failure, extra: Record<string, unknown> = {}) {
  return envelope === "internal"
    ? { code: failure.code, error: failure.message, extra }
    : { code: failure.code, msg: failure.message };
}

/** Internal routes live under these prefixes; a request that matched no route is judged by path. */
export function envelopeForPath(url: string): Envelope {
  if (url.startsWith("/account/api/") || /^\/api\/market\/goods(\/|\?|$)/.test(url)) return "internal";
  return "official";
}
