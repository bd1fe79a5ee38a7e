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
 * Tokens recently found valid, by the hash of the token (docs/design.md section 11), so that a
 * request does not read `api_tokens` again. An entry lives at most `ttlMs`; everything is
 * forgotten when a token is revoked, an access level changes or the world is reset — on this
 * instance right after the commit, on the others when they hear the announcement (`tokensChanged`).
 * The lifetime bounds how long a change announced while an instance was not listening can go unseen.
 */
export class TokenCache {
  readonly #entries = new Map<string, { token: CachedToken; cachedAt: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;

  constructor(options: { maxEntries?: number; ttlMs?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 10_000;
  }

  get(tokenHash: string, now: number): CachedToken | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.cachedAt >= this.#ttlMs || now < entry.cachedAt) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry.token;
  }

  set(tokenHash: string, token: CachedToken, now: number): void {
    this.#entries.delete(tokenHash);
    // The oldest entry goes first: a Map iterates in insertion order.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(tokenHash, { token, cachedAt: now });
  }

  forget(): void {
    this.#entries.clear();
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
