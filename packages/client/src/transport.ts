import type {
  OperationBody,
  OperationDefinition,
  OperationParams,
  OperationQuery,
  OperationResponse,
} from "@skinmarket/contract";
import { MarketApiError, MarketTransportError } from "./errors.ts";

export interface TransportOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Replaces the global `fetch` (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
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

/** Calls one contract operation: builds the URL from its path, sends JSON, raises typed errors. */
export async function callOperation<Operation extends OperationDefinition>(
  options: TransportOptions,
  operation: Operation,
  input: CallInput<Operation> = {},
): Promise<RawAnswer<Operation>> {
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
  let body: string | undefined;
  if (input.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(input.body);
  }
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: operation.method,
      headers,
      ...(body ? { body } : {}),
    });
  } catch (error) {
    throw new MarketTransportError(`${operation.method} ${url.pathname}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch (error) {
    throw new MarketTransportError(`${operation.method} ${url.pathname}: HTTP ${response.status}, not JSON`, {
      cause: error,
    });
  }
  if (!response.ok) throw toApiError(parsed, response);
  return { body: parsed as OperationResponse<Operation>, headers: response.headers };
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
