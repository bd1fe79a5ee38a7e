import type { getBuffPriceHistory } from "@skinmarket/contract";
import type uPlot from "uplot";
import { useEffect, useRef, useState } from "preact/hooks";
import { web } from "../../api.ts";
import { money } from "../../format.ts";
import { language, t } from "../../i18n.ts";
import { useStore } from "../../store.ts";
import { useLoad } from "../../use-data.tsx";
import { DAY_S, dailySeries, priceRange, type DailySeries } from "./chart-series.ts";

const HEIGHT = 240;
const PRICE_COLOUR = "#e4ae39";
const VOLUME_COLOUR = "rgba(138, 180, 248, 0.45)";
const AXIS_FONT = "12px system-ui, sans-serif";

/** The chart's days are UTC days. */
const IN_UTC = { timeZone: "UTC" } as const;

/** A day's date as the x axis and the readout write it, in the page's language (days are UTC). */
function dayLabel(seconds: number, withYear = false): string {
  return new Date(seconds * 1000).toLocaleDateString(language.value === "zh" ? "zh-CN" : "en-GB", {
    day: "numeric",
    month: "short",
    ...(withYear ? { year: "numeric" } : {}),
    ...IN_UTC,
  });
}

/** A price axis label: yuan with thousands separators and no more decimals than needed. */
function axisYuan(value: number): string {
  return `¥${value.toLocaleString("en-US", { maximumFractionDigits: value < 10 ? 2 : 0 })}`;
}

/** A label's width in the axis font, so that the axis is wide enough for its longest label. */
function axisWidth(chart: uPlot, labels: string[] | undefined): number {
  if (!labels || labels.length === 0) return 40;
  chart.ctx.font = AXIS_FONT;
  return Math.ceil(Math.max(...labels.map((label) => chart.ctx.measureText(label).width))) + 22;
}

/** The readout under the chart: the day under the pointer, or the latest day with trades. */
function readout(series: DailySeries, index: number | null | undefined): string {
  let at = index ?? -1;
  if (at < 0 || series.prices[at] === null) at = series.prices.findLastIndex((price) => price !== null);
  if (at < 0) return "";
  return t("{day}: median {price}, {n} sold", {
    day: dayLabel(series.days[at]!, true),
    price: money(series.prices[at]),
    n: series.volumes[at] ?? 0,
  });
}

function options(
  series: DailySeries,
  width: number,
  UPlot: typeof uPlot,
  onCursor: (text: string) => void,
): uPlot.Options {
  const axis = {
    stroke: "#aab",
    font: AXIS_FONT,
    grid: { stroke: "#2f3742", width: 1 },
    ticks: { show: false },
  };
  return {
    width,
    height: HEIGHT,
    // Room on the right for the last date label, which is centred on its day.
    padding: [12, 28, 0, 4],
    legend: { show: false },
    cursor: { y: false, points: { size: 8 } },
    scales: {
      x: { time: true, range: series.range },
      price: { range: () => priceRange(series.prices) },
      // The bars take the lower third, under the prices.
      volume: { range: (): [number, number] => [0, Math.max(1, ...series.volumes.map((n) => n ?? 0)) * 3] },
    },
    axes: [
      {
        ...axis,
        space: 64,
        // Whole days only: one sale draws a window of days, never hours or years.
        incrs: [1, 2, 7, 14, 28, 56].map((days) => days * DAY_S),
        values: (_: uPlot, splits: number[]) => splits.map((split) => dayLabel(split)),
      },
      {
        ...axis,
        scale: "price",
        values: (_: uPlot, splits: number[]) => splits.map(axisYuan),
        size: (chart: uPlot, values: string[]) => axisWidth(chart, values),
      },
    ],
    series: [
      {},
      {
        label: t("Median price"),
        scale: "price",
        stroke: PRICE_COLOUR,
        width: 2,
        // Days without trades are gaps (null), never bridged; every day with trades is a dot.
        spanGaps: false,
        points: { show: true, size: 7, fill: PRICE_COLOUR },
      },
      {
        label: t("Sales per day"),
        scale: "volume",
        fill: VOLUME_COLOUR,
        stroke: VOLUME_COLOUR,
        width: 0,
        paths: UPlot.paths.bars!({ size: [0.7, 24], align: 0 }),
        points: { show: false },
      },
    ],
    hooks: { setCursor: [(chart: uPlot) => onCursor(readout(series, chart.cursor.idx))] },
  };
}

/**
 * The daily median price of completed trades (`goods/price_history/buff`) over the chosen days,
 * with the day's sales as bars under it, drawn with uPlot (loaded only when an item page draws
 * it, so the first page stays small). No sales: a sentence instead of an empty chart.
 */
export function PriceChart(props: { goodsId: number; everSold: boolean }) {
  useStore(language);
  const [days, setDays] = useState(30);
  const [pointed, setPointed] = useState("");
  const history = useLoad(
    () =>
      web<typeof getBuffPriceHistory>("GET", "/api/market/goods/price_history/buff", {
        query: { game: "csgo", goods_id: props.goodsId, days },
      }),
    [props.goodsId, days],
  );
  const answer = history.value;
  const series = answer
    ? dailySeries(answer.price_history, answer.volume_history, days, Date.now())
    : undefined;
  const sold = series?.prices.some((price) => price !== null) ?? false;
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!series || !sold || !box.current) return;
    let chart: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let cancelled = false;
    setPointed(readout(series, null));
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      const element = box.current;
      if (cancelled || !element) return;
      element.textContent = "";
      const width = () => Math.max(200, element.clientWidth);
      chart = new UPlot(
        options(series, width(), UPlot, setPointed),
        [series.days, series.prices, series.volumes],
        element,
      );
      // The full width of its column, whatever the window does.
      resize = new ResizeObserver(() => chart?.setSize({ width: width(), height: HEIGHT }));
      resize.observe(element);
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [answer, language.value]);

  const prices = series?.prices.filter((price): price is number => price !== null) ?? [];
  return (
    <section aria-labelledby="chart-title" class="price-chart">
      <div class="row">
        <h2 id="chart-title">{t("Price history")}</h2>
        {props.everSold ? (
          <div role="group" aria-label={t("Days")} class="segmented">
            {[7, 30, 180].map((choice) => (
              <button
                type="button"
                key={choice}
                aria-pressed={days === choice}
                onClick={() => setDays(choice)}
              >
                {t("{n} days", { n: choice })}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      {history.error ? <p role="alert">{history.error}</p> : null}
      {!props.everSold ? <p class="muted">{t("No sales yet.")}</p> : null}
      {props.everSold && !answer && !history.error ? (
        // The chart's room and its key while it loads, so what follows does not move when it comes.
        <figure class="chart-figure" aria-busy="true">
          <div class="chart" />
          <figcaption class="chart-key" aria-hidden="true">
            <span class="key-price">{t("Median price")}</span>
            <span class="key-volume">{t("Sales per day")}</span>
          </figcaption>
        </figure>
      ) : null}
      {props.everSold && answer && !sold ? (
        <p class="muted">{t("No sales in the last {n} days.", { n: days })}</p>
      ) : null}
      {sold ? (
        <figure class="chart-figure">
          <div
            ref={box}
            class="chart"
            role="img"
            aria-label={t("Median price by day: {n} of {days} days with sales, from {low} to {high}", {
              n: prices.length,
              days: series!.days.length,
              low: money(Math.min(...prices)),
              high: money(Math.max(...prices)),
            })}
          />
          <figcaption class="chart-key">
            <span class="key-price">{t("Median price")}</span>
            <span class="key-volume">{t("Sales per day")}</span>
            <span class="chart-readout">{pointed}</span>
          </figcaption>
        </figure>
      ) : null}
    </section>
  );
}
