import type { FastifyInstance } from "fastify";
import { checkReadiness } from "../../../domain/check-readiness.ts";
import type { Metrics } from "../../plugins/metrics.ts";

const system = { access: "public", envelope: "official" } as const;

/** Liveness, readiness, metrics and the OpenAPI document: operators' conventions. */
export function registerSystemRoutes(app: FastifyInstance, options: { metrics: Metrics }): void {
  app.get("/healthz", { config: system, schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config: system, schema: { hide: true } }, async (request, reply) => {
    const readiness = await checkReadiness(request.ctx);
    if (!readiness.ready) return reply.code(503).send({ status: readiness.reason });
    return { status: "ready", goods: readiness.goods };
  });

  app.get("/metrics", { config: system, schema: { hide: true } }, async (_request, reply) => {
    reply.type(options.metrics.contentType);
    return options.metrics.text();
  });

  app.get("/openapi.json", { config: system, schema: { hide: true } }, async () => app.swagger());
}
