import type {
  OperationBody,
  OperationDefinition,
  OperationParams,
  OperationQuery,
  OperationResponse,
} from "@skinmarket/contract";
import { MarketApiError, MarketTransportError } from "./errors.ts";
import { DEFAULT_RATE, LimitTracker, type Rate } from "./rate-limits.ts";
import { addIdempotencyKey, isRepeatable, retryDelay, type Failure } from "./retry.ts";

export interface TransportOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Replaces the global `fetch` (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /**
   * `respect` (default): an official operation waits for room in its rate before it is sent, rather
   * than be refused; `off`: sends at once and leaves the server's 429s to the retries.
   */
  limits?: "respect" | "off";
  /** The rate of official operations whose contract names none; the server's default is 20 per second. */
  defaultRate?: Rate;
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /**
   * Whether writes that take one get a generated `Idempotency-Key` (default true), which makes them safe
   * to retry. A key in the call's or the options' headers is used as it is.
   */
  idempotentWrites?: boolean;
  /**
   * The buckets and the limit state of one API token. Calls share them only through the same
   * tracker; a call without one counts on its own. `MarketClient` makes one per client.
   */
  limitTracker?: LimitTracker;
  /** Waits for the buckets and between retries; tests replace it so that nothing really waits. */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds on a clock that does not jump (default `performance.now`), for the buckets. */
  now?: () => number;
}

export interface CallInput<Operation extends OperationDefinition> {
  params?: OperationParams<Operation>;
  query?: OperationQuery<Operation>;
  body?: OperationBody<Operation>;
  headers?: Record<string, string>;
}

export interface RawAnswer<Operation extends OperationDefinition> {
  body: OperationResponse<Operation>;
  headers: Headers;
}

/** One logical call, sent the same way by every attempt. */
interface PreparedRequest {
  url: URL;
  init: RequestInit;
  repeatable: boolean;
}

type Outcome<Operation extends OperationDefinition> =
  { answer: RawAnswer<Operation>; failure?: undefined } | { answer?: undefined; failure: Failure };

/**
 * Calls one contract operation: builds the URL from its path, sends JSON, raises typed errors.
 * Official operations wait for their rate; refused and transient failures are retried when sending
 * again cannot do the work twice.
 */
export async function callOperation<Operation extends OperationDefinition>(
  options: TransportOptions,
  operation: Operation,
  input: CallInput<Operation> = {},
): Promise<RawAnswer<Operation>> {
  const request = buildRequest(options, operation, input);
  const tracker = options.limitTracker ?? new LimitTracker();
  const sleep = options.sleep ?? wait;
  const maxRetries = options.maxRetries ?? 3;
  for (let attempt = 0; ; attempt++) {
    await takeToken(options, tracker, operation, sleep);
    const outcome = await sendOnce(options, operation, request, tracker);
    if (outcome.answer) return outcome.answer;
    const delay = attempt < maxRetries ? retryDelay(outcome.failure, attempt, request.repeatable) : undefined;
    if (delay === undefined) throw outcome.failure.error;
    if (delay > 0) await sleep(delay);
  }
}

function buildRequest<Operation extends OperationDefinition>(
  options: TransportOptions,
  operation: Operation,
  input: CallInput<Operation>,
): PreparedRequest {
  const url = new URL(
    fillPath(operation.path, input.params as Record<string, unknown> | undefined),
    options.baseUrl,
  );
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = {
    accept: "application/json",
    ...options.headers,
    ...input.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotentWrites ?? true) addIdempotencyKey(operation, headers);
  let body: string | undefined;
  if (input.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(input.body);
  }
  const init: RequestInit = { method: operation.method, headers, ...(body ? { body } : {}) };
  return { url, init, repeatable: isRepeatable(operation, headers) };
}

async function takeToken(
  options: TransportOptions,
  tracker: LimitTracker,
  operation: OperationDefinition,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  if (options.limits === "off") return;
  const bucket = tracker.bucket(operation, options.defaultRate ?? DEFAULT_RATE);
  const delay = bucket?.take(options.now ? options.now() : performance.now()) ?? 0;
  if (delay > 0) await sleep(delay);
}

async function sendOnce<Operation extends OperationDefinition>(
  options: TransportOptions,
  operation: Operation,
  request: PreparedRequest,
  tracker: LimitTracker,
): Promise<Outcome<Operation>> {
  const where = `${operation.method} ${request.url.pathname}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(request.url, request.init);
  } catch (error) {
    return {
      failure: { error: new MarketTransportError(`${where}: ${(error as Error).message}`, { cause: error }) },
    };
  }
  const { status, headers } = response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch (error) {
    const failure = new MarketTransportError(`${where}: HTTP ${status}, not JSON`, { cause: error });
    return { failure: { error: failure, status, headers } };
  }
  tracker.observe(operation.id, headers, parsed);
  if (!response.ok) return { failure: { error: toApiError(parsed, response), status, headers } };
  return { answer: { body: parsed as OperationResponse<Operation>, headers } };
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([a-z_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} is required`);
    return encodeURIComponent(String(value));
  });
}

function toApiError(body: unknown, response: Response): MarketApiError {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  if (typeof body === "object" && body !== null && "code" in body) {
    const record = body as { code: unknown; msg?: unknown; error?: unknown };
    const msg =
      typeof record.msg === "string" ? record.msg : typeof record.error === "string" ? record.error : "";
    return new MarketApiError({ code: String(record.code), msg, status: response.status, body, requestId });
  }
  return new MarketApiError({
    code: `HTTP ${response.status}`,
    msg: response.statusText,
    status: response.status,
    body,
    requestId,
  });
}
