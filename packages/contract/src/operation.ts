import type { Static, TSchema } from "typebox";

/**
 * Who may call an operation. Every route declares exactly one (docs/design/security.md#the-website-routes):
 * - `public`: anyone;
 * - `session`: a signed-in website session (the `session` cookie);
 * - `developer`: a bearer token of a developer or enterprise user;
 * - `enterprise`: a bearer token of an enterprise user;
 * - `sandbox_admin`: the sandbox admin token;
 * - `staff`: a signed-in staff member (the `staff_session` cookie), whose role the verb checks
 *   (docs/design/back-office.md#staff-and-roles).
 */
export type AccessLevel = "public" | "session" | "developer" | "enterprise" | "sandbox_admin" | "staff";

/**
 * How an operation's answers are shaped (docs/design/wire-conventions.md#idempotent-writes): official operations and the
 * sandbox answer failures as `{code, msg}`, internal (website) routes as `{code, error, extra}`.
 */
export type Envelope = "official" | "internal" | "sandbox";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The reference's limits of an operation, per API token (docs/design/wire-conventions.md#limits): a rate of
 * `points` requests per `seconds`, and a daily allowance. Official operations without a rate get
 * the server's default rate.
 */
export interface OperationLimits {
  readonly rate?: { readonly points: number; readonly seconds: number };
  readonly daily?: number;
  /**
   * At most `perDay` distinct goods per UTC day, read from the request's `field` (or each of
   * `fields`) in the query or the body, one value or a list; a goods already asked for that day
   * does not count again. Goods named by market hash name count as the same goods as their id.
   */
  readonly distinctGoods?: {
    readonly perDay: number;
    readonly in: "query" | "body";
    readonly field?: GoodsField;
    readonly fields?: readonly GoodsField[];
  };
}

/** The request fields that name goods: by id, or by market hash name. */
export type GoodsField = "goods_id" | "goods_ids" | "market_hash_name" | "market_hash_names";

export interface OperationDefinition {
  /** Stable camelCase name: the client method and the OpenAPI operationId. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Fastify-style path, `:name` for path parameters. */
  readonly path: string;
  readonly access: AccessLevel;
  readonly envelope: Envelope;
  /** One line: what the operation does (the OpenAPI summary, and the description's first sentence). */
  readonly summary: string;
  /** What a caller should know beyond the summary: rules, side effects, edge cases (OpenAPI description). */
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: TSchema;
  readonly querystring?: TSchema;
  readonly body?: TSchema;
  /** The success body (HTTP 200). */
  readonly response: TSchema;
  readonly limits?: OperationLimits;
  /**
   * A POST that only reads (a search with a body): safe to send again, so it takes no
   * `Idempotency-Key` and clients may retry it like a GET.
   */
  readonly readOnly?: boolean;
  /**
   * A `developer` operation the website may also call with its signed-in session (no
   * `Authorization` header): from a page of the server's own origin, writes with the CSRF token
   * (docs/design/security.md#cross-site-request-forgery). Only for the account's own data the website shows.
   */
  readonly sessionToo?: boolean;
}

/** The access levels whose caller is a user, to whom an `Idempotency-Key` belongs. */
const USER_ACCESS: ReadonlySet<AccessLevel> = new Set(["session", "developer", "enterprise"]);

/**
 * Whether an operation honours `Idempotency-Key` (docs/design/wire-conventions.md#idempotent-writes): every write whose caller is a user, whatever its envelope (the website's
 * writes as the official ones), keyed per user. Reads ignore a key (they are safe to repeat);
 * writes without a user to keep the key for (sign-in, the sandbox admin) refuse one.
 */
export function takesIdempotencyKey(operation: {
  method: string;
  access: AccessLevel;
  readOnly?: boolean;
}): boolean {
  return isWrite(operation) && USER_ACCESS.has(operation.access);
}

/** A request that may change something: not a GET (nor its HEAD), and not a POST that only reads. */
export function isWrite(operation: { method: string; readOnly?: boolean }): boolean {
  return operation.method !== "GET" && operation.method !== "HEAD" && !operation.readOnly;
}

export function defineOperation<const Definition extends OperationDefinition>(
  definition: Definition,
): Definition {
  return definition;
}

type Part<Definition, Key extends string> = Definition extends { readonly [K in Key]: infer Schema }
  ? Schema extends TSchema
    ? Static<Schema>
    : never
  : undefined;

export type OperationParams<Definition extends OperationDefinition> = Part<Definition, "params">;
export type OperationQuery<Definition extends OperationDefinition> = Part<Definition, "querystring">;
export type OperationBody<Definition extends OperationDefinition> = Part<Definition, "body">;
export type OperationResponse<Definition extends OperationDefinition> = Static<Definition["response"]>;
