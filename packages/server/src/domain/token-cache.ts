import type { AccessLevel } from "../storage/schema.ts";

export interface CachedToken {
  userId: number;
  tokenId: number;
  accessLevel: AccessLevel;
  lastUsedAt: Date | null;
}

/**
 * Tokens recently found valid (docs/design/security.md#api-tokens-in-memory), so that a request neither reads
 * `api_tokens` nor hashes its token again. Everything is forgotten when a token is revoked, an
 * access level changes or the world is reset: on this instance right after the commit, on the
 * others when they hear the announcement (`tokensChanged`). The lifetime is the bound that holds
 * even when an announcement is lost: an entry lives `ttlMs` from the moment the lookup that made
 * it began, before it read the table, so a token read as valid before a revocation committed is
 * accepted no later than `ttlMs` after that commit. A lookup begun before a `forget` does not put
 * its (possibly stale) answer back afterwards. Time is the cache's own monotonic clock, not the
 * sandbox clock nor the wall clock, which can jump.
 */
export class TokenCache {
  /** By the token as presented; a Map keeps insertion order, which is the order of `cachedAt`. */
  readonly #entries = new Map<string, { caller: CachedToken; cachedAt: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** When the oldest entry was made (Infinity when there is none). */
  #oldestAt = Infinity;
  /** Counts the `forget`s, so that a lookup can tell whether one happened while it read. */
  #generation = 0;

  constructor(options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? TOKEN_CACHE_TTL_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  get(token: string): CachedToken | undefined {
    const now = this.#now();
    if (now - this.#oldestAt >= this.#ttlMs) this.#dropExpired(now);
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (now - entry.cachedAt >= this.#ttlMs || now < entry.cachedAt) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.caller;
  }

  /** Taken before reading the table: the entry that read makes lives from now. */
  beginLookup(): TokenLookup {
    return { startedAt: this.#now(), generation: this.#generation };
  }

  /** Remembers what a lookup found, unless everything was forgotten since it began. */
  set(token: string, caller: CachedToken, lookup: TokenLookup): void {
    if (lookup.generation !== this.#generation) return;
    this.#entries.delete(token);
    // The oldest entry goes first.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    // Insertion order stays the order of `cachedAt` unless lookups finish out of order; then an
    // entry may be dropped a little later than its time by `#dropExpired`, never used past it.
    this.#entries.set(token, { caller, cachedAt: lookup.startedAt });
    this.#oldestAt = this.#entries.values().next().value!.cachedAt;
  }

  /** How many tokens are remembered, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
  }

  forget(): void {
    this.#entries.clear();
    this.#oldestAt = Infinity;
    this.#generation += 1;
  }

  #dropExpired(now: number): void {
    for (const [token, entry] of this.#entries) {
      if (now - entry.cachedAt < this.#ttlMs && now >= entry.cachedAt) {
        this.#oldestAt = entry.cachedAt;
        return;
      }
      this.#entries.delete(token);
    }
    this.#oldestAt = Infinity;
  }
}

export interface TokenLookup {
  startedAt: number;
  generation: number;
}

/**
 * How long a token found valid is trusted without reading the table again: the bound within which
 * a revocation holds on every instance even if its announcement is lost (docs/design/security.md#the-revocation-bound). One read per token per second per instance costs nothing measurable.
 */
export const TOKEN_CACHE_TTL_MS = 1000;
