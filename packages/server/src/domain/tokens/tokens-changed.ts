import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

/**
 * Inside the transaction that revokes a token or changes who may do what: the other instances
 * forget their cached tokens once it commits (`NOTIFY` is delivered on commit only). The caller
 * forgets this instance's own after the commit (`ctx.tokenCache?.forget()`).
 */
export async function tokensChanged(tx: DomainContext): Promise<void> {
  await sql`SELECT pg_notify('skinmarket_changes', '{"kind":"tokens"}')`.execute(tx.db);
}
