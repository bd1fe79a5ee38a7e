import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Registry } from "prom-client";
import { routeOf } from "../route-of.ts";

/** What `/metrics` answers. */
export interface Metrics {
  contentType: string;
  text(): Promise<string>;
  /** Adds a gauge read when `/metrics` is asked (open event streams). */
  gauge(name: string, help: string, read: () => number): void;
}

/**
 * Prometheus metrics at /metrics: prom-client's process defaults, plus request durations per
 * route and status (`http_request_duration_seconds`, a histogram).
 */
export function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const durations = new RequestDurations();
  app.addHook("onResponse", (request, reply, done) => {
    // The route pattern, not the URL: ids in paths would make every request its own series.
    durations.observe(
      request.method,
      routeOf(request).url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime,
    );
    done();
  });
  const gauges: string[] = [];
  const reads: (() => string)[] = [];
  return {
    contentType: registry.contentType,
    text: async () =>
      `${await registry.metrics()}\n${durations.text()}${reads.map((read) => read()).join("")}`,
    gauge(name, help, read) {
      if (gauges.includes(name)) throw new Error(`gauge ${name} registered twice`);
      gauges.push(name);
      reads.push(() => `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${read()}\n`);
    },
  };
}

const DURATION_BUCKETS_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface Series {
  /** `method="GET",route="/x",status_code="200"`, ready for the text format. */
  labels: string;
  /** Observations per bucket, not cumulative; the last counts those above every bound. */
  perBucket: number[];
  sumSeconds: number;
}

/**
 * The request-duration histogram, kept by hand: prom-client's `Histogram` validates and hashes the
 * labels on every observation, even through a bound child, which cost about a microsecond on
 * every request (docs/design/performance.md#the-work-of-every-request). Here a request finds its series by route, method and
 * status, each a lookup of a value it already holds: no label string is built per request (that
 * alone cost more than the rest of an observation).
 */
export class RequestDurations {
  readonly #byRoute = new Map<string, Map<string, Map<number, Series>>>();

  observe(method: string, route: string, statusCode: number, elapsedMs: number): void {
    let byMethod = this.#byRoute.get(route);
    if (!byMethod) this.#byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(statusCode);
    if (!series) {
      series = {
        labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status_code="${statusCode}"`,
        perBucket: new Array<number>(DURATION_BUCKETS_SECONDS.length + 1).fill(0),
        sumSeconds: 0,
      };
      byStatus.set(statusCode, series);
    }
    const seconds = elapsedMs / 1000;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS_SECONDS.length && seconds > DURATION_BUCKETS_SECONDS[bucket]!) bucket++;
    series.perBucket[bucket]!++;
    series.sumSeconds += seconds;
  }

  *#series(): Iterable<Series> {
    for (const byMethod of this.#byRoute.values())
      for (const byStatus of byMethod.values()) yield* byStatus.values();
  }

  /** The histogram in the Prometheus text format (version 0.0.4). */
  text(): string {
    const name = "http_request_duration_seconds";
    const lines = [
      `# HELP ${name} HTTP request duration by method, route and status code`,
      `# TYPE ${name} histogram`,
    ];
    for (const series of this.#series()) {
      let cumulative = 0;
      DURATION_BUCKETS_SECONDS.forEach((bound, index) => {
        cumulative += series.perBucket[index]!;
        lines.push(`${name}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
      });
      cumulative += series.perBucket[DURATION_BUCKETS_SECONDS.length]!;
      lines.push(`${name}_bucket{le="+Inf",${series.labels}} ${cumulative}`);
      lines.push(`${name}_sum{${series.labels}} ${series.sumSeconds}`);
      lines.push(`${name}_count{${series.labels}} ${cumulative}`);
    }
    return `${lines.join("\n")}\n`;
  }
}

/** A label value in the text format: backslash, double quote and line feed escaped. */
function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === "\n" ? "\\n" : `\\${character}`));
}
