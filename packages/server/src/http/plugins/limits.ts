import type { OperationLimits } from "@skinmarket/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import { RateLimiterRes } from "rate-limiter-flexible";
import type { LimiterStore } from "../limits/limiter-store.ts";
import { sendFailure } from "../failure.ts";

export interface RateSetting {
  points: number;
  seconds: number;
}

export interface LimitSettings {
  /** The rate of official operations the reference gives none (20 requests/second). */
  defaultRate: RateSetting;
  /** Per operation id, replacing the reference's rate (configuration `RATE_LIMITS`). */
  overrides: Record<string, RateSetting>;
}

/**
 * Official operations obey the reference's limits per API token (docs/design.md section 7). The
 * count is taken after authentication and validation, so refused requests cost nothing. Every
 * limited answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and
 * `RateLimit-Policy`; a request over the limit is 429 `Rate Limit Exceeded` with `Retry-After`.
 */
export function registerLimits(app: FastifyInstance, store: LimiterStore, settings: LimitSettings): void {
  app.addHook("onRoute", (route) => {
    const rate = rateOf(route.config, settings);
    // Made up front, so that a token's counters can be reset on every operation.
    if (rate) store.limiter(`rate:${route.config!.operationId}`, rate.points, rate.seconds);
  });

  app.addHook("preHandler", async (request, reply) => {
    const config = request.routeOptions.config;
    const rate = rateOf(config, settings);
    if (!rate || request.tokenId === undefined) return;
    const limiter = store.limiter(`rate:${config.operationId}`, rate.points, rate.seconds);
    try {
      const taken = await limiter.consume(String(request.tokenId));
      setHeaders(reply, rate, taken.remainingPoints, taken.msBeforeNext);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      setHeaders(reply, rate, 0, refusal.msBeforeNext);
      reply.header("retry-after", String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))));
      return sendFailure(reply, config.envelope ?? "official", {
        code: "Rate Limit Exceeded",
        message: `${config.operationId} allows ${rate.points} requests per ${describe(rate.seconds)} per token; retry after ${Math.ceil(refusal.msBeforeNext / 1000)} s`,
      });
    }
  });
}

function rateOf(
  config: { operationId?: string; limits?: OperationLimits; envelope?: string } | undefined,
  settings: LimitSettings,
): RateSetting | undefined {
  if (!config?.operationId || config.envelope !== "official") return undefined;
  return settings.overrides[config.operationId] ?? config.limits?.rate ?? settings.defaultRate;
}

function setHeaders(reply: FastifyReply, rate: RateSetting, remaining: number, msBeforeNext: number) {
  reply.header("ratelimit-limit", String(rate.points));
  reply.header("ratelimit-remaining", String(Math.max(0, remaining)));
  reply.header("ratelimit-reset", String(Math.max(0, Math.ceil(msBeforeNext / 1000))));
  reply.header("ratelimit-policy", `${rate.points};w=${rate.seconds}`);
}

function describe(seconds: number): string {
  if (seconds === 1) return "second";
  if (seconds === 60) return "minute";
  if (seconds === 86_400) return "day";
  return `${seconds} seconds`;
}
