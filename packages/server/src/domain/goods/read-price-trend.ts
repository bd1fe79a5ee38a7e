import { moneyToNumber } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { ok } from "../result.ts";
import { readDailyMedians } from "./read-price-history.ts";

/** The price trend's header: prices are in yuan, each point a daily median of completed trades. */
function header(days: number) {
  return { currency: "CNY" as const, currency_symbol: "¥" as const, days, price_type: "median" as const };
}

/**
 * The goods page's price trend as the real website's `price_history/buff` routes answer it
 * (docs/design/website-goods-routes.md#the-websites-market-data-routes): the daily medians of `goods/price_history`, each point
 * `[Unix milliseconds, yuan as a number]`, as the tools written for that website parse it.
 */
async function readTrendPoints(ctx: DomainContext, input: { goodsId: number; days: number }) {
  const medians = await readDailyMedians(ctx, input);
  if (!medians.ok) return medians;
  return ok({
    prices: medians.value.map((point): [number, number] => [point.day * 1000, moneyToNumber(point.median)]),
    volumes: medians.value.map((point): [number, number] => [point.day * 1000, point.trades]),
  });
}

/**
 * `price_history/buff`: one series, `price_history`, and beside it `volume_history`, the same
 * days' counts of completed trades (the website's volume bars).
 */
export async function readPriceTrend(ctx: DomainContext, input: { goodsId: number; days: number }) {
  const points = await readTrendPoints(ctx, input);
  if (!points.ok) return points;
  return ok({
    ...header(input.days),
    steam_price_currency: "CNY" as const,
    price_history: points.value.prices,
    volume_history: points.value.volumes,
  });
}

/**
 * `price_history/buff/v2`: the same series as the one line of a chart, `sell_price_history`
 * (the completed trades' prices; the marketplace keeps no history of its lowest listing or of
 * its listing counts, so it draws no other line).
 */
export async function readPriceTrendLines(ctx: DomainContext, input: { goodsId: number; days: number }) {
  const points = await readTrendPoints(ctx, input);
  if (!points.ok) return points;
  return ok({
    ...header(input.days),
    lines: [
      {
        key: "sell_price_history" as const,
        name: "成交价",
        chart_type: "price" as const,
        color: "#3A8EE6",
        allow: true,
        show: true,
        points: points.value.prices,
        disabled_confirm: null,
      },
    ],
  });
}
