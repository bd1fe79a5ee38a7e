import type { OperationDefinition } from "@skinmarket/contract";

/** `points` requests per `seconds`, the shape of the contract's `limits.rate`. */
export interface Rate {
  points: number;
  seconds: number;
}

/** What the server's `RateLimit-*` headers said about an operation in its last answer. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the server's window ended, counted from that answer. */
  resetSeconds: number;
}

/** The server's rate for official operations whose contract names none. */
export const DEFAULT_RATE: Rate = { points: 20, seconds: 1 };

/**
 * A bucket of `points` tokens in which each spent token comes back `seconds` after it was spent.
 * A bucket refilled at a steady pace would let a burst of `points` be followed at once by more,
 * which the server's fixed windows refuse; this one never starts more than `points` requests within
 * any `seconds`, wherever the server's window begins.
 */
export class TokenBucket {
  readonly #points: number;
  readonly #windowMs: number;
  /** When each token still out comes back, earliest first; the last ones may be promised to waiting callers. */
  readonly #returns: number[] = [];

  constructor(rate: Rate) {
    this.#points = rate.points;
    this.#windowMs = rate.seconds * 1000;
  }

  /**
   * Takes a token at once and answers how many milliseconds the caller must wait before using it.
   * Promising the token before the wait keeps concurrent callers in order and never over the rate.
   */
  take(now: number): number {
    while (this.#returns.length > 0 && this.#returns[0]! <= now) this.#returns.shift();
    const start =
      this.#returns.length < this.#points ? now : this.#returns[this.#returns.length - this.#points]!;
    this.#returns.push(start + this.#windowMs);
    return start - now;
  }
}

/**
 * The client side of one API token's limits: a bucket per operation, and what the server last said
 * about each operation's limits. Calls share it to share the token's allowance.
 */
export class LimitTracker {
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #states = new Map<string, RateLimitState>();
  readonly #requestsRemaining = new Map<string, number>();

  /** The operation's bucket, made on first use; none for operations the server does not limit. */
  bucket(operation: OperationDefinition, defaultRate: Rate): TokenBucket | undefined {
    if (operation.envelope !== "official") return undefined;
    let bucket = this.#buckets.get(operation.id);
    if (!bucket) {
      bucket = new TokenBucket(operation.limits?.rate ?? defaultRate);
      this.#buckets.set(operation.id, bucket);
    }
    return bucket;
  }

  /** Remembers the limits an answer reports: its `RateLimit-*` headers and a body's `req_remaining`. */
  observe(operationId: string, headers: Headers, body: unknown): void {
    const state = readRateLimitHeaders(headers);
    if (state) this.#states.set(operationId, state);
    const remaining = readRequestsRemaining(body);
    if (remaining !== undefined) this.#requestsRemaining.set(operationId, remaining);
  }

  rateLimitState(operationId: string): RateLimitState | undefined {
    const state = this.#states.get(operationId);
    return state && { ...state };
  }

  requestsRemaining(operationId: string): number | undefined {
    return this.#requestsRemaining.get(operationId);
  }
}

function readRateLimitHeaders(headers: Headers): RateLimitState | undefined {
  const limit = readCount(headers.get("ratelimit-limit"));
  const remaining = readCount(headers.get("ratelimit-remaining"));
  const resetSeconds = readCount(headers.get("ratelimit-reset"));
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}

function readCount(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

function readRequestsRemaining(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null || !("req_remaining" in body)) return undefined;
  const value = body.req_remaining;
  return Number.isInteger(value) ? (value as number) : undefined;
}
