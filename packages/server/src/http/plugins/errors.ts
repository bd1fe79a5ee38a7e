import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { IdempotencyKeyTakenOver } from "../../domain/idempotency-keys.ts";
import type { Failure } from "../../domain/result.ts";
import { describeValidation } from "../../domain/describe-validation.ts";
import { EnvelopeTable } from "../envelope-table.ts";
import { HttpFailure, sendFailure } from "../failure.ts";

/**
 * One place renders every error. Expected failures keep their code; validation errors become
 * `Invalid Argument` naming the field; anything unexpected becomes `Internal Error` with the
 * request id and no internals (the details go to the log). A failure is said in the envelope of
 * the matched operation; one no route took, in the envelope `envelopes` finds for it, unless
 * `missingPages` answers it with the website's page of an unknown address.
 */
/**
 * Answers a path no route took with a page of the website when it is one a browser opens as a
 * page (`registerWebsite` sets it); undefined leaves it to the API's "Path Not Found".
 */
export interface MissingPages {
  answer?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | undefined;
}

export function registerErrorHandling(
  app: FastifyInstance,
  envelopes = new EnvelopeTable(),
  missingPages: MissingPages = {},
): void {
  app.setErrorHandler((error: FastifyError | HttpFailure, request, reply) => {
    const envelope = request.routeOptions.config?.envelope ?? envelopes.of(request.method, request.url);
    if (error instanceof HttpFailure) {
      return sendFailure(reply, envelope, error.failure, error.extra);
    }
    const known = describeClientError(error);
    if (known) return sendFailure(reply, envelope, known);
    // A request whose key a retry took over committed nothing (docs/design/recovery.md#an-idempotency-keys-life-when-its-request-dies).
    if (error instanceof IdempotencyKeyTakenOver)
      return sendFailure(reply, envelope, { code: "Invalid State", message: error.message });
    request.log.error({ err: error }, "request failed");
    // Changes committed before the failure stand; the caller must not take the 500 for "nothing".
    const committed =
      (request.ctx?.effects?.committed ?? 0) > 0 ? " after committing changes, which stand" : "";
    return sendFailure(
      reply,
      envelope,
      {
        code: "Internal Error",
        message: `internal error${committed}; quote request id ${request.id} when reporting it`,
      },
      { request_id: request.id },
    );
  });

  app.setNotFoundHandler(
    (request, reply) =>
      missingPages.answer?.(request, reply) ??
      sendFailure(reply, envelopes.of(request.method, request.url), {
        code: "Path Not Found",
        message: `no operation at ${request.method} ${request.url.split("?")[0]}`,
      }),
  );
}

function describeClientError(error: FastifyError): Failure | undefined {
  if (error.validation) {
    return {
      code: "Invalid Argument",
      message: describeValidation(error.validation, error.validationContext),
    };
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { code: "Payload Too Large", message: "body: larger than the 1 MiB limit" };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { code: "Unsupported Media Type", message: "body: send Content-Type: application/json" };
  }
  return undefined;
}
