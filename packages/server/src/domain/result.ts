import type { ErrorCode } from "@skinmarket/contract";

/**
 * Expected failures travel as values (`{ ok: false, failure }`); exceptions only abort. The HTTP
 * layer turns a failure into the error body of docs/design/wire-conventions.md#wire-conventions.
 */
export interface Failure {
  code: ErrorCode;
  message: string;
  /** For a refusal that passes with time (a limit): when to try again, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

export type Result<Value> = { ok: true; value: Value } | { ok: false; failure: Failure };

export function ok<Value>(value: Value): { ok: true; value: Value } {
  return { ok: true, value };
}

export function fail(code: ErrorCode, message: string): { ok: false; failure: Failure } {
  return { ok: false, failure: { code, message } };
}

/** `Invalid Argument` naming the field, in the one format every layer uses. */
export function invalidArgument(field: string, problem: string): { ok: false; failure: Failure } {
  return fail("Invalid Argument", `${field}: ${problem}`);
}
