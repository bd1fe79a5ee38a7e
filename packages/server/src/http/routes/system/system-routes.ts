import type { FastifyInstance } from "fastify";
import { OfficialErrorBody } from "@skinmarket/contract";
import { Type } from "typebox";
import { checkReadiness } from "../../../domain/check-readiness.ts";
import type { Metrics } from "../../plugins/metrics.ts";

const system = { access: "public", envelope: "official" } as const;
const tags = ["System"];

/** What any path may answer before its route runs (http/client-errors.ts), these included. */
const Refused = {
  ...OfficialErrorBody,
  description:
    "Refused before the route runs: request line and headers over 16 KiB (431), a request not received in time (408), bytes that are not HTTP (400)",
};

const Ready = Type.Object({
  status: Type.Literal("ready"),
  goods: Type.Integer({ minimum: 0, description: "goods in the loaded catalog" }),
});
const NotReady = Type.Object({
  status: Type.String({
    description: "why not: the database or the catalog",
    examples: ["catalog not loaded"],
  }),
});

/** Liveness, readiness, metrics and the OpenAPI document: operators' conventions. */
export function registerSystemRoutes(app: FastifyInstance, options: { metrics: Metrics }): void {
  app.get(
    "/healthz",
    {
      config: system,
      schema: {
        operationId: "getHealth",
        summary: "Liveness: answers while the process runs",
        description:
          "For a liveness probe: answers 200 as long as the process serves requests, whatever the database does.",
        tags,
        security: [],
        response: {
          200: { ...Type.Object({ status: Type.Literal("ok") }), description: "The process is alive" },
          "4xx": Refused,
        },
      },
    },
    async () => ({ status: "ok" }) as const,
  );

  app.get(
    "/readyz",
    {
      config: system,
      schema: {
        operationId: "getReadiness",
        summary: "Readiness: the database answers and the catalog is loaded",
        description:
          "For a readiness probe or a load balancer: 200 once the service can answer the market, 503 until then.",
        tags,
        security: [],
        response: {
          200: { ...Ready, description: "Ready to serve the market" },
          503: { ...NotReady, description: "Not ready yet, or the database does not answer" },
          "4xx": Refused,
        },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(request.ctx);
      if (!readiness.ready) return reply.code(503).send({ status: readiness.reason });
      return { status: "ready" as const, goods: readiness.goods };
    },
  );

  app.get(
    "/metrics",
    {
      config: {
        ...system,
        // Documented only: the answer is Prometheus text, which no JSON serializer may touch.
        swaggerTransform: ({ schema, url }) => ({
          url,
          schema: {
            ...schema,
            operationId: "getMetrics",
            summary: "Prometheus metrics: request durations by route pattern, process figures",
            description: "In the Prometheus text exposition format, for a scraper.",
            tags,
            security: [],
            response: {
              200: {
                description: "Prometheus text (version 0.0.4)",
                content: { "text/plain": { schema: { type: "string" } } },
              },
              "4xx": {
                description: Refused.description,
                content: { "application/json": { schema: OfficialErrorBody } },
              },
            },
          },
        }),
      },
    },
    async (_request, reply) => {
      reply.type(options.metrics.contentType);
      return options.metrics.text();
    },
  );

  app.get("/openapi.json", { config: system, schema: { hide: true } }, async () => app.swagger());
}
