import { takesIdempotencyKey, type OperationDefinition } from "@skinmarket/contract";
import { MarketApiError } from "./errors.ts";

/** An attempt that failed: the error it raises, and the answer's status and headers if one came. */
export interface Failure {
  error: Error;
  status?: number;
  headers?: Headers;
}

const IDEMPOTENCY_KEY = "idempotency-key";
const GATEWAY_STATUSES = new Set([502, 503, 504]);
const FIRST_BACKOFF_MS = 100;
const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * Gives a write that takes one (a user's write, official or website) a generated
 * `Idempotency-Key` unless the caller brought one. Made once per call, the key is repeated by
 * every retry, so the server runs the write at most once.
 */
export function addIdempotencyKey(operation: OperationDefinition, headers: Record<string, string>): void {
  if (!takesIdempotencyKey(operation)) return;
  if (!hasHeader(headers, IDEMPOTENCY_KEY)) headers[IDEMPOTENCY_KEY] = crypto.randomUUID();
}

/**
 * Whether sending a request again cannot do its work twice: a GET or a read-only POST, or a write
 * that takes an `Idempotency-Key` and carries one.
 */
export function isRepeatable(operation: OperationDefinition, headers: Record<string, string>): boolean {
  if (operation.method === "GET" || operation.readOnly) return true;
  return takesIdempotencyKey(operation) && hasHeader(headers, IDEMPOTENCY_KEY);
}

/**
 * How long to wait before sending again after attempt number `attempt` (0 for the first) failed, or
 * undefined when the failure must be raised. A 429 is retried whatever the method: the server
 * refuses it before running anything.
 */
export function retryDelay(failure: Failure, attempt: number, repeatable: boolean): number | undefined {
  if (failure.status === 429) return retryAfterMs(failure.headers);
  if (!repeatable) return undefined;
  const transient =
    failure.status === undefined || GATEWAY_STATUSES.has(failure.status) || isStillAnswered(failure.error);
  return transient ? backoffMs(attempt) : undefined;
}

/** `Retry-After` (seconds), else the window's `RateLimit-Reset`, else a second. */
function retryAfterMs(headers: Headers | undefined): number {
  for (const name of ["retry-after", "ratelimit-reset"]) {
    const value = headers?.get(name)?.trim();
    if (value && /^\d+$/.test(value)) return Number(value) * 1000;
  }
  return DEFAULT_RETRY_AFTER_MS;
}

/**
 * 100 ms, 200 ms, 400 ms... plus up to half again at random, so that clients failing together do
 * not all come back at the same moment.
 */
function backoffMs(attempt: number): number {
  const step = FIRST_BACKOFF_MS * 2 ** attempt;
  return Math.round(step + (Math.random() * step) / 2);
}

/** The server's answer while the first request with the same key is still running. */
function isStillAnswered(error: Error): boolean {
  return (
    error instanceof MarketApiError &&
    error.status === 409 &&
    error.code === "Invalid State" &&
    error.msg.includes("still being answered")
  );
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
