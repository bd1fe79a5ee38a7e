import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { readSteamMarketItem, type SteamMarketItem } from "../../platform/sandbox/steam-market.ts";
import { InventoryReadLimit } from "../inventory-read-limit.ts";
import { signedInSteamId } from "../steam-cookies.ts";
import { CNY, formatSteamCount, formatSteamMoney, steamCurrency } from "../steam-money.ts";

const COMMUNITY = { host: "steamcommunity.com" };

/**
 * Steam answers `429` to a client asking for prices too often (steampy: "You can fetch maximum 20
 * prices in 60s period"); the face counts both market routes per client address, per minute of
 * the sandbox clock.
 */
export const MARKET_READS_PER_MINUTE = 20;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

type MarketQuery = { Querystring: Record<string, string | string[] | undefined> };

/**
 * The Community Market's price routes (docs/design/steam-face.md#market-prices), read from the
 * sandbox's Steam market: `priceoverview` (lowest ask, 24-hour volume, median; anyone) and
 * `pricehistory` (daily median and volume; signed in, in the account's wallet currency, which is
 * CNY in the sandbox). Refusals are Steam's: `{"success":false}` for a name or game the market
 * lacks (500) or a missing parameter (400), `[]` with 400 to a caller not signed in.
 */
export function marketRoutes(ctx: DomainContext) {
  const readLimit = new InventoryReadLimit(ctx.clock, MARKET_READS_PER_MINUTE);
  return async (app: FastifyInstance) => {
    app.get<MarketQuery>("/market/priceoverview", { constraints: COMMUNITY }, async (request, reply) => {
      const { appid, market_hash_name: name, currency: code } = request.query;
      const currency = typeof code === "object" ? undefined : steamCurrency(code);
      if (!isGiven(appid) || !isGiven(name) || !currency) return unsuccessful(reply, 400);
      if (!readLimit.take(clientOf(request))) return tooMany(reply);
      const item = await findItem(ctx, appid, name);
      if (!item) return unsuccessful(reply, 500);
      const median = item.history.at(-1);
      return reply.send({
        success: true,
        ...(item.current ? { lowest_price: formatSteamMoney(item.current.price, currency) } : {}),
        ...(item.current && item.current.volume > 0 ? { volume: formatSteamCount(item.current.volume) } : {}),
        ...(median ? { median_price: formatSteamMoney(median.price, currency) } : {}),
      });
    });

    app.get<MarketQuery>("/market/pricehistory", { constraints: COMMUNITY }, async (request, reply) => {
      if (!(await signedInSteamId(ctx, request))) return reply.code(400).send([]);
      const { appid, market_hash_name: name } = request.query;
      if (!isGiven(appid) || !isGiven(name)) return unsuccessful(reply, 400);
      if (!readLimit.take(clientOf(request))) return tooMany(reply);
      const item = await findItem(ctx, appid, name);
      if (!item) return unsuccessful(reply, 500);
      return reply.send({
        success: true,
        price_prefix: CNY.prefix,
        price_suffix: CNY.suffix,
        prices: item.history.map((point) => [
          historyDate(point.day),
          CNY.fromFen(point.price) / 100,
          String(point.volume),
        ]),
      });
    });
  };
}

async function findItem(
  ctx: DomainContext,
  appid: string,
  name: string,
): Promise<SteamMarketItem | undefined> {
  return appid === "730" ? readSteamMarketItem(ctx, name) : undefined;
}

/** A parameter given once and not empty. */
function isGiven(value: string | string[] | undefined): value is string {
  return typeof value === "string" && value !== "";
}

/** A daily point's date as Steam writes it: `Nov 27 2026 01: +0`. */
function historyDate(day: string): string {
  const [year, month, date] = day.split("-");
  return `${MONTHS[Number(month) - 1]} ${date} ${year} 01: +0`;
}

function clientOf(request: FastifyRequest): string {
  return request.ip || "local";
}

function unsuccessful(reply: FastifyReply, status: number) {
  return reply.code(status).send({ success: false });
}

function tooMany(reply: FastifyReply) {
  return reply.code(429).type("application/json").send("null");
}
