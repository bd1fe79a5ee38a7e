import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { routeOf } from "../route-of.ts";

/** Prometheus metrics at /metrics: process defaults plus request durations per route and status. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // The series of a route and status, kept once made: finding one costs prom-client a hash of its
  // labels on every observation.
  const series = new Map<string, ReturnType<typeof duration.labels>>();
  app.addHook("onResponse", (request, reply, done) => {
    // The route pattern, not the URL: ids in paths would make every request its own series.
    const route = routeOf(request).url ?? "unmatched";
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = series.get(key);
    if (!child) {
      child = duration.labels({ method: request.method, route, status_code: String(reply.statusCode) });
      series.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
