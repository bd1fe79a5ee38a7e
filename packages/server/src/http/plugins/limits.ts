import type { GoodsField, OperationLimits } from "@skinmarket/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RateLimiterRes } from "rate-limiter-flexible";
import { secondsToUtcMidnight, type LimiterStore } from "../limits/limiter-store.ts";
import { sendFailure } from "../failure.ts";
import { routeOf } from "../route-of.ts";

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
 * Official operations obey the reference's limits per API token (docs/design/wire-conventions.md#limits). The
 * count is taken after authentication and validation, so refused requests cost nothing. Every
 * limited answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and
 * `RateLimit-Policy`; a request over the limit is 429 `Rate Limit Exceeded` with `Retry-After`.
 * Operations with a daily allowance also count in a 24-hour window: their answers carry the true
 * `req_remaining`, and a request beyond it is 429 `Quota Exceeded` with `Retry-After`.
 */
export function registerLimits(app: FastifyInstance, store: LimiterStore, settings: LimitSettings): void {
  app.addHook("onRoute", (route) => {
    const rate = rateOf(route.config, settings);
    // Made up front, so that a token's counters can be reset on every operation.
    if (rate) store.limiter(`rate:${route.config!.operationId}`, rate.points, rate.seconds);
    const daily = route.config?.limits?.daily;
    if (rate && daily) store.limiter(`daily:${route.config!.operationId}`, daily, DAY_SECONDS);
  });

  // Synchronous for the requests no limit counts (public routes, sessions): the counting itself
  // waits on the store.
  app.addHook("preHandler", (request, reply, done) => {
    const config = routeOf(request).config;
    const rate = rateOf(config, settings);
    if (!rate || request.tokenId === undefined) return done();
    count(request, reply, config, rate, store).then((answered) => {
      if (!answered) done();
    }, done);
  });

  // A request the operation itself refused as bad input gives its daily allowance back.
  app.addHook("onResponse", (request, reply, done) => {
    if (request.requestsRemaining === undefined || reply.statusCode !== 400) return done();
    const { operationId, limits } = routeOf(request).config;
    const daily = limits?.daily;
    if (!operationId || !daily || request.tokenId === undefined) return done();
    store
      .limiter(`daily:${operationId}`, daily, DAY_SECONDS)
      .reward(String(request.tokenId))
      .then(() => done(), done);
  });
}

const DAY_SECONDS = 86_400;

/**
 * Counts a request against its token's rate, daily allowance and distinct goods: true when it was
 * refused (answered here), false to go on.
 */
async function count(
  request: FastifyRequest,
  reply: FastifyReply,
  config: FastifyRequest["routeOptions"]["config"],
  rate: RateSetting,
  store: LimiterStore,
): Promise<boolean> {
  const limiter = store.limiter(`rate:${config.operationId}`, rate.points, rate.seconds);
  const key = String(request.tokenId);
  try {
    const taken = await limiter.consume(key);
    setHeaders(reply, rate, taken.remainingPoints, taken.msBeforeNext);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    setHeaders(reply, rate, 0, refusal.msBeforeNext);
    reply.header("retry-after", String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))));
    sendFailure(reply, config.envelope ?? "official", {
      code: "Rate Limit Exceeded",
      message: `${config.operationId} allows ${rate.points} requests per ${describe(rate.seconds)} per token; retry after ${Math.ceil(refusal.msBeforeNext / 1000)} s`,
    });
    return true;
  }
  const daily = config.limits?.daily;
  const allowance = daily ? store.limiter(`daily:${config.operationId}`, daily, DAY_SECONDS) : undefined;
  if (allowance) {
    try {
      const taken = await allowance.consume(key);
      request.requestsRemaining = taken.remainingPoints;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      reply.header("retry-after", String(seconds));
      sendFailure(reply, config.envelope ?? "official", {
        code: "Quota Exceeded",
        message: `${config.operationId} allows ${daily} requests per 24 hours per token; the allowance renews in ${renewsIn(seconds)}`,
      });
      return true;
    }
  }
  // Goods join the day's set last, once nothing else can refuse the request before it runs;
  // a goods the operation itself then refuses stays counted (taking it back could also take
  // back one a concurrent request used).
  const distinct = config.limits?.distinctGoods;
  if (distinct) {
    const ids = await goodsIdsOf(request, distinct);
    const added = await store.addDistinct(config.operationId!, key, ids, distinct.perDay);
    if (!added.admitted) {
      if (allowance) await allowance.reward(key);
      const seconds = secondsToUtcMidnight();
      reply.header("retry-after", String(seconds));
      sendFailure(reply, config.envelope ?? "official", {
        code: "Quota Exceeded",
        message: `${config.operationId} allows ${distinct.perDay} distinct ${goodsFieldsOf(distinct).join(" and ")} per day (UTC) per token; ${added.used} asked for today, new ones again in ${renewsIn(seconds)}`,
      });
      return true;
    }
  }
  return false;
}

function goodsFieldsOf(distinct: NonNullable<OperationLimits["distinctGoods"]>): GoodsField[] {
  return [...(distinct.field ? [distinct.field] : []), ...(distinct.fields ?? [])];
}

/**
 * The goods a request asks for, as goods ids, from every field the operation declares (one value
 * or a list). Market hash names are resolved through the catalog, so that a goods asked for by name
 * and by id counts once; a name the catalog does not know names no goods and counts nothing (the
 * operation refuses it).
 */
async function goodsIdsOf(
  request: FastifyRequest,
  distinct: NonNullable<OperationLimits["distinctGoods"]>,
): Promise<string[]> {
  const source = distinct.in === "query" ? request.query : request.body;
  const fields = goodsFieldsOf(distinct);
  const ids: string[] = [];
  const names: string[] = [];
  for (const field of fields) {
    const value =
      source !== null && typeof source === "object" ? (source as Record<string, unknown>)[field] : undefined;
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    (field.startsWith("market_hash_name") ? names : ids).push(...values.map(String));
  }
  if (names.length > 0) {
    const found = await request.ctx.db
      .selectFrom("goods")
      .select("goods_id")
      .where("market_hash_name", "in", [...new Set(names)])
      .execute();
    ids.push(...found.map((row) => String(row.goods_id)));
  }
  return ids;
}

function renewsIn(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
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
