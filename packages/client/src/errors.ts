import type { ErrorCode } from "@skinmarket/contract";

/** A failure answered by the service: its code, its message and the HTTP status. */
export class MarketApiError extends Error {
  readonly code: ErrorCode | string;
  readonly msg: string;
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;

  constructor(input: {
    code: string;
    msg: string;
    status: number;
    body: unknown;
    requestId?: string | undefined;
  }) {
    super(`${input.code} (HTTP ${input.status}): ${input.msg}`);
    this.name = "MarketApiError";
    this.code = input.code;
    this.msg = input.msg;
    this.status = input.status;
    this.body = input.body;
    this.requestId = input.requestId;
  }
}

/** The service could not be reached or answered something that is not the API's JSON. */
export class MarketTransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MarketTransportError";
  }
}
