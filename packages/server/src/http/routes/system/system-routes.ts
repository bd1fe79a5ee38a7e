import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { Registry } from "prom-client";
import type { DatabaseHandle } from "../../../storage/database.ts";

const system = { access: "public", envelope: "official" } as const;

/** Liveness, readiness, metrics and the OpenAPI document: operators' conventions. */
export function registerSystemRoutes(
  app: FastifyInstance,
  options: { database: DatabaseHandle; metrics: Registry },
): void {
  app.get("/healthz", { config: system, schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config: system, schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`SELECT 1`.execute(options.database.db);
      const catalog = await options.database.db
        .selectFrom("catalog_state")
        .select("goods_count")
        .executeTakeFirst();
      if (!catalog) return reply.code(503).send({ status: "catalog not loaded" });
      return { status: "ready", goods: catalog.goods_count };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check failed");
      return reply.code(503).send({ status: "database unavailable" });
    }
  });

  app.get("/metrics", { config: system, schema: { hide: true } }, async (_request, reply) => {
    reply.type(options.metrics.contentType);
    return options.metrics.metrics();
  });

  app.get("/openapi.json", { config: system, schema: { hide: true } }, async () => app.swagger());
}
