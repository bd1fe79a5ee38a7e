import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";

/**
 * Probes that orchestrators and scrapers call every few seconds: their requests are logged at
 * debug, so that an idle service's log at info holds what happened, not that it was asked.
 */
const PROBE_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * Query parameters whose values are credentials wherever a client puts them (`?token=`,
 * `?access_token=`, `?api_key=`, `?session=`, `?password=` ...): the service reads credentials
 * only from headers and the cookie, but a client that sends one in the URL must not see it kept
 * in the request log. By the name's ending, after `-` is read as `_`.
 */
const SECRET_PARAMETER =
  /(token|key|secret|passw(or)?d|session(_?id)?|auth(orization)?|signature|sig|cookies?|credentials?)$/i;
const REDACTED = "[redacted]";

/** A failure's message in the log is cut here: enough to read it, never a whole echoed input. */
const LOGGED_MESSAGE_CHARS = 300;

declare module "fastify" {
  interface FastifyRequest {
    /** The error answer's `code` and message, read from its body for the response's log line. */
    answeredFailure?: { code: string; msg: string };
  }
}

/**
 * Fastify's request lines (one when a request arrives, one when its answer is sent), with probes
 * at debug and, on an error answer, its `code` and message: a 4xx line says why, not only that.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log[levelOf(request)]({ req: request }, "incoming request");
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = {
      res: reply,
      responseTime: reply.elapsedTime,
      ...(request.answeredFailure ? { failure: request.answeredFailure } : {}),
    };
    if (error) reply.log.error({ ...fields, err: error }, "request errored");
    else reply.log[levelOf(request)](fields, "request completed");
  }
}

/**
 * Reads the `code` and message of every error answer, whichever envelope (`{code, msg}` or
 * `{code, error}`) and whichever part of the service (the error renderer, a limit, an idempotent
 * replay) answered, for `RequestLogController`'s line.
 */
export function registerFailureLogging(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (reply.statusCode >= 400) {
      const failure = failureOf(payload);
      if (failure) request.answeredFailure = failure;
    }
    done(null, payload);
  });
}

/**
 * A request as its log lines show it (Fastify's fields), its URL with the values of credential
 * parameters replaced: the service's logger serializes every `req` with this. Any other value
 * logged as `req` is left as it is, to the logger's redaction of headers.
 */
export function serializeRequest(request: FastifyRequest): unknown {
  if (typeof request !== "object" || request === null || request.raw === undefined) return request;
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The URL with the value of every query parameter named like a credential redacted. */
export function redactedUrl(url: string): string {
  const start = url.indexOf("?");
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETER.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${query.join("&")}`;
}

function decodedName(name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    // A malformed escape: judged as written.
  }
  return decoded.trim().replaceAll("-", "_");
}

function levelOf(request: FastifyRequest): "debug" | "info" {
  return PROBE_PATHS.has(request.url.split("?")[0]!) ? "debug" : "info";
}

/** The `code` and message of an error body in either envelope; nothing for any other payload. */
function failureOf(payload: unknown): FastifyRequest["answeredFailure"] {
  const text =
    typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
  if (text === undefined || !text.startsWith("{")) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const { code, msg, error } = body as Record<string, unknown>;
  const message = typeof msg === "string" ? msg : typeof error === "string" ? error : undefined;
  if (typeof code !== "string" || message === undefined) return undefined;
  return { code, msg: message.slice(0, LOGGED_MESSAGE_CHARS) };
}
