import type pg from "pg";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";

/**
 * Statements the server runs again and again (a purchase, a balance, a token lookup) are parsed
 * and planned once per connection instead of on every call: a statement text seen for the second
 * time gets a name, and `pg` prepares a named statement on each connection the first time it
 * runs there. One-off texts (migrations, DDL) stay unnamed, and at most `limit` texts are named,
 * so a workload of ever-new texts cannot grow each connection's statement cache without bound.
 */
export class StatementNames {
  readonly #seen = new Set<string>();
  readonly #names = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = 500) {
    this.#limit = limit;
  }

  nameFor(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined) return name;
    if (this.#names.size >= this.#limit) return undefined;
    if (!this.#seen.has(text)) {
      if (this.#seen.size < this.#limit * 4) this.#seen.add(text);
      return undefined;
    }
    this.#seen.delete(text);
    const named = `skm_${this.#names.size + 1}`;
    this.#names.set(text, named);
    return named;
  }
}

/** `pg`'s pool as Kysely's dialect sees it, running repeated statements as prepared ones. */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    get processID() {
      return (client as unknown as { processID?: number }).processID;
    },
    release: (destroy?: boolean) => client.release(destroy),
    query: ((textOrCursor: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) => {
      if (typeof textOrCursor !== "string") return client.query(textOrCursor as never);
      const name = names.nameFor(textOrCursor);
      return client.query({
        text: textOrCursor,
        values: [...(parameters ?? [])],
        ...(name === undefined ? {} : { name }),
      }) as Promise<PostgresQueryResult<unknown>>;
    }) as PostgresPoolClient["query"],
  });
  return {
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
