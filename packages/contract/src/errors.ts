import { Type, type Static } from "typebox";

/**
 * The closed set of error codes (docs/design/wire-conventions.md#wire-conventions). Every failure the service answers
 * carries one of these; `ERROR_HTTP_STATUS` is the single code-to-status mapping.
 */
export const ERROR_HTTP_STATUS = {
  "Invalid Argument": 400,
  Unauthorized: 401,
  "Login Required": 401,
  "Access Denied": 403,
  "Not Found": 404,
  "Path Not Found": 404,
  "Request Timeout": 408,
  "Invalid State": 409,
  "Insufficient Balance": 409,
  "Payload Too Large": 413,
  "Unsupported Media Type": 415,
  "Idempotency Key Reused": 422,
  "Rate Limit Exceeded": 429,
  "Quota Exceeded": 429,
  "Request Header Fields Too Large": 431,
  "Internal Error": 500,
} as const;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

export const ERROR_CODES = Object.keys(ERROR_HTTP_STATUS) as ErrorCode[];

/** Failure body of official operations and of the sandbox API. */
export const OfficialErrorBody = Type.Object(
  {
    code: Type.Enum(ERROR_CODES),
    msg: Type.String(),
  },
  { $id: "OfficialError", description: "Failure of an official operation" },
);
export type OfficialErrorBody = Static<typeof OfficialErrorBody>;

/** Failure body of internal (website) routes, such as the `Login Required` form. */
export const InternalErrorBody = Type.Object(
  {
    code: Type.Enum(ERROR_CODES),
    error: Type.String(),
    extra: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: "InternalError", description: "Failure of an internal (website) route" },
);
export type InternalErrorBody = Static<typeof InternalErrorBody>;
