import {
  InternalErrorBody,
  OfficialErrorBody,
  type OperationBody,
  type OperationDefinition,
  type OperationParams,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from "fastify";
import type { TSchema } from "typebox";
import type { DomainContext } from "../domain/context.ts";
import type { Result } from "../domain/result.ts";
import { HttpFailure } from "./failure.ts";
import { describeOperation } from "./plugins/openapi-document.ts";
import { PrebuiltJson } from "./prebuilt-json.ts";
import { sendPrebuilt } from "./send-prebuilt.ts";

export interface OperationInput<Operation extends OperationDefinition> {
  params: OperationParams<Operation>;
  query: OperationQuery<Operation>;
  body: OperationBody<Operation>;
  ctx: DomainContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler answers: the response, less `req_remaining` where the route adds it (daily limits). */
export type HandlerAnswer<Operation extends OperationDefinition> = Operation["limits"] extends {
  daily: number;
}
  ? Omit<OperationResponse<Operation>, "req_remaining">
  : OperationResponse<Operation>;

export type OperationHandler<Operation extends OperationDefinition> = (
  input: OperationInput<Operation>,
) =>
  Result<HandlerAnswer<Operation> | PrebuiltJson> | Promise<Result<HandlerAnswer<Operation> | PrebuiltJson>>;

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

function hasRequiredFields(schema: TSchema): boolean {
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) && required.length > 0;
}

const SECURITY: Record<OperationDefinition["access"], Array<Record<string, string[]>>> = {
  public: [],
  session: [{ sessionCookie: [] }],
  developer: [{ bearerToken: [] }],
  enterprise: [{ bearerToken: [] }],
  sandbox_admin: [{ sandboxAdminToken: [] }],
  staff: [{ staffSessionCookie: [] }],
};

/**
 * Registers a contract operation: its schemas validate the request and serialize the answer, its
 * access level guards it, and the handler maps one domain verb's result to the answer.
 */
export function registerOperation<Operation extends OperationDefinition>(
  app: FastifyInstance,
  operation: Operation,
  handler: OperationHandler<Operation>,
): void {
  const errorBody = operation.envelope === "internal" ? InternalErrorBody : OfficialErrorBody;
  app.route({
    method: operation.method,
    url: operation.path,
    config: {
      access: operation.access,
      envelope: operation.envelope,
      operationId: operation.id,
      ...(operation.limits ? { limits: operation.limits } : {}),
      ...(operation.readOnly ? { readOnly: true } : {}),
      ...(operation.sessionToo ? { sessionToo: true } : {}),
    },
    // Fastify reads no body for GET and HEAD, so those routes have nothing to check here.
    ...(operation.method === "GET" ? {} : { preValidation: bodyCheck(operation) }),
    schema: {
      operationId: operation.id,
      summary: operation.summary,
      description: describeOperation(operation),
      tags: [...operation.tags],
      security: operation.sessionToo
        ? [...SECURITY[operation.access], ...SECURITY.session]
        : SECURITY[operation.access],
      ...(operation.params ? { params: operation.params } : {}),
      ...(operation.querystring ? { querystring: operation.querystring } : {}),
      ...(operation.body ? { body: operation.body } : {}),
      response: { 200: operation.response, "4xx": errorBody, "5xx": errorBody },
    },
    // Not async: a handler that has its answer at hand (a price from the snapshot in memory)
    // returns it without a promise, and Fastify sends a plain value at once.
    handler: (request, reply) => {
      const pending = handler({
        params: request.params as OperationParams<Operation>,
        query: request.query as OperationQuery<Operation>,
        body: request.body as OperationBody<Operation>,
        ctx: request.ctx,
        request,
        reply,
      });
      return pending instanceof Promise
        ? pending.then((result): unknown => answerOf(request, reply, result))
        : answerOf(request, reply, pending);
    },
  });

  function answerOf(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Result<HandlerAnswer<Operation> | PrebuiltJson>,
  ) {
    if (!result.ok) throw new HttpFailure(result.failure);
    // Operations with a daily allowance tell the caller what is left of it (all of it while
    // limits are off).
    const daily = operation.limits?.daily;
    const tail = daily === undefined ? {} : { req_remaining: request.requestsRemaining ?? daily };
    // A whole-market answer was serialized once for everyone (its shape is held to the response
    // schema by the tests, as the serializer cannot see it); only the tail is the caller's.
    if (result.value instanceof PrebuiltJson) return sendPrebuilt(request, reply, result.value, tail);
    if (daily !== undefined && typeof result.value === "object" && result.value !== null)
      return { ...result.value, ...tail };
    return result.value;
  }
}

/** An operation without a body refuses one that carries fields, as it refuses unknown fields. */
function bodyCheck(operation: OperationDefinition): preValidationHookHandler {
  return (request, _reply, done) => {
    if (!operation.body) {
      if (request.body !== undefined && !isEmptyObject(request.body)) {
        return done(
          new HttpFailure({ code: "Invalid Argument", message: "body: this operation takes no body" }),
        );
      }
      request.body = undefined;
    } else if (request.body === undefined && !hasRequiredFields(operation.body)) {
      // Every field is optional: no body means all defaults.
      request.body = {};
    }
    done();
  };
}
