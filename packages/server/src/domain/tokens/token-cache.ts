import { sql } from "kysely";
import type { AccessLevel } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

export interface CachedToken {
  userId: number;
  tokenId: number;
  accessLevel: AccessLevel;
  lastUsedAt: Date | null;
}

/**
 * Tokens recently found valid (docs/design.md section 11), so that a request neither reads
 * `api_tokens` nor hashes its token again. An entry lives at most `ttlMs`, and expired entries are
 * dropped by the next lookup, so a token is not held in memory long after its last request.
 * Everything is forgotten when a token is revoked, an access level changes or the world is reset —
 * on this instance right after the commit, on the others when they hear the announcement
 * (`tokensChanged`). The lifetime bounds how long a change announced while an instance was not
 * listening can go unseen.
 */
export class TokenCache {
  /** By the token as presented; a Map keeps insertion order, which is the order of `cachedAt`. */
  readonly #entries = new Map<string, { caller: CachedToken; cachedAt: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  /** When the oldest entry was made (Infinity when there is none). */
  #oldestAt = Infinity;

  constructor(options: { maxEntries?: number; ttlMs?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 10_000;
  }

  get(token: string, now: number): CachedToken | undefined {
    if (now - this.#oldestAt >= this.#ttlMs) this.#dropExpired(now);
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (now - entry.cachedAt >= this.#ttlMs || now < entry.cachedAt) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.caller;
  }

  set(token: string, caller: CachedToken, now: number): void {
    this.#entries.delete(token);
    // The oldest entry goes first.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, { caller, cachedAt: now });
    this.#oldestAt = this.#entries.values().next().value!.cachedAt;
  }

  /** How many tokens are remembered, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
  }

  forget(): void {
    this.#entries.clear();
    this.#oldestAt = Infinity;
  }

  #dropExpired(now: number): void {
    for (const [token, entry] of this.#entries) {
      if (now - entry.cachedAt < this.#ttlMs) {
        this.#oldestAt = entry.cachedAt;
        return;
      }
      this.#entries.delete(token);
    }
    this.#oldestAt = Infinity;
  }
}
/**
 * Inside the transaction that revokes a token or changes who may do what: the other instances
 * forget their cached tokens once it commits (`NOTIFY` is delivered on commit only). The caller
 * forgets this instance's own after the commit (`ctx.tokenCache?.forget()`).
 */
export async function tokensChanged(tx: DomainContext): Promise<void> {
  await sql`SELECT pg_notify('skinmarket_changes', '{"kind":"tokens"}')`.execute(tx.db);
}
