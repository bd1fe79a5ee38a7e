import { sql } from "kysely";
import type { DomainContext } from "./context.ts";

export type Readiness = { ready: true; goods: number } | { ready: false; reason: string };

/** Ready to serve: the database answers and the catalog is loaded. */
export async function checkReadiness(ctx: DomainContext): Promise<Readiness> {
  try {
    await sql`SELECT 1`.execute(ctx.db);
    const catalog = await ctx.db.selectFrom("catalog_state").select("goods_count").executeTakeFirst();
    return catalog
      ? { ready: true, goods: catalog.goods_count }
      : { ready: false, reason: "catalog not loaded" };
  } catch (error) {
    ctx.log.warn({ err: error }, "readiness check failed");
    return { ready: false, reason: "database unavailable" };
  }
}
