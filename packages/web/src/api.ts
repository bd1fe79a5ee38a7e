/**
 * Calls to the service, only through the routes a real client uses: the website's routes with the
 * `session` cookie and, on writes, the `X-CSRFToken` header read from the `csrf_token` cookie; the
 * official operations that take the session the same way; the official operations with an API
 * token; the sandbox API with the sandbox admin token.
 */

import type { OperationBody, OperationDefinition, OperationResponse } from "@skinmarket/contract";

/** What a website route's envelope carries in `data`, typed by its contract operation. */
export type WebData<Operation extends OperationDefinition> =
  OperationResponse<Operation> extends { data: infer Data } ? Data : never;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function call(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; headers?: Record<string, string> },
): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      credentials: "same-origin",
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch {
    throw new ApiError(0, "Network", "the server did not answer");
  }
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(response.status, "Bad Answer", `unexpected answer (${response.status})`);
  }
  if (!response.ok) {
    const failure = (body ?? {}) as { code?: string; msg?: string; error?: string; message?: string };
    throw new ApiError(
      response.status,
      failure.code ?? String(response.status),
      failure.error ?? failure.msg ?? failure.message ?? `failed (${response.status})`,
    );
  }
  return body;
}

/**
 * What a call sends besides its path: the query, and a body typed by the operation's contract.
 * Every call names its operation (`web<typeof getGoodsInfo>(...)`), whose answer type the page
 * then reads; without one the method is `never` and the call does not compile.
 */
export interface CallOptions<Operation extends OperationDefinition> {
  query?: Query;
  body?: OperationBody<Operation>;
}

/** A website route (internal envelope `{code: "OK", data}`); writes carry the CSRF token. */
export async function web<Operation extends OperationDefinition = never>(
  method: Operation["method"],
  path: string,
  options: CallOptions<Operation> = {},
): Promise<WebData<Operation>> {
  const answer = (await call(method, path, { ...options, headers: csrfHeader(method) })) as {
    code: string;
    data: WebData<Operation>;
    msg?: string;
  };
  if (answer.code !== "OK") throw new ApiError(200, answer.code, answer.msg ?? answer.code);
  return answer.data;
}

/**
 * An official operation that also takes the website session (`sessionToo` in the contract: the
 * account's money movements, buy orders online or offline, sending a trade offer): the session
 * cookie, and on writes the CSRF token, in place of an API token. Answers the official body.
 */
export async function own<Operation extends OperationDefinition = never>(
  method: Operation["method"],
  path: string,
  options: CallOptions<Operation> = {},
): Promise<OperationResponse<Operation>> {
  return (await call(method, path, {
    ...options,
    headers: csrfHeader(method),
  })) as OperationResponse<Operation>;
}

/**
 * A back-office route (`/ops/api/*`, docs/design/back-office.md#staff-sign-in): the `staff_session`
 * cookie, and on writes the `ops_csrf_token` cookie echoed in `X-CSRFToken`.
 */
export async function ops<Operation extends OperationDefinition = never>(
  method: Operation["method"],
  path: string,
  options: CallOptions<Operation> = {},
): Promise<WebData<Operation>> {
  const token = method === "GET" ? undefined : cookie("ops_csrf_token");
  const answer = (await call(method, path, {
    ...options,
    headers: token ? { "x-csrftoken": token } : {},
  })) as {
    data: WebData<Operation>;
  };
  return answer.data;
}

/** A write with the session echoes the `csrf_token` cookie in `X-CSRFToken`. */
function csrfHeader(method: string): Record<string, string> {
  const token = method === "GET" ? undefined : cookie("csrf_token");
  return token ? { "x-csrftoken": token } : {};
}

/** An official operation with an API token (`Authorization: Bearer smk_...`). */
export async function official<Operation extends OperationDefinition = never>(
  method: Operation["method"],
  path: string,
  token: string,
  options: CallOptions<Operation> = {},
): Promise<OperationResponse<Operation>> {
  return (await call(method, path, {
    ...options,
    headers: { authorization: `Bearer ${token}` },
  })) as OperationResponse<Operation>;
}

/** The sandbox API with the sandbox admin token. */
export async function sandbox<Operation extends OperationDefinition = never>(
  method: Operation["method"],
  path: string,
  adminToken: string,
  options: CallOptions<Operation> = {},
): Promise<OperationResponse<Operation>> {
  return (await call(method, path, {
    ...options,
    headers: { authorization: `Bearer ${adminToken}` },
  })) as OperationResponse<Operation>;
}
