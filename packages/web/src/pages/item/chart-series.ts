/** One UTC day, in seconds (uPlot's time unit). */
export const DAY_S = 86_400;

/** The chart's data: one entry per day of the window, null on a day without trades. */
export interface DailySeries {
  /** Each day's start, Unix seconds. */
  days: number[];
  /** That day's median price, null without trades (so no line is drawn across it). */
  prices: Array<number | null>;
  /** That day's count of trades, null without trades (no bar). */
  volumes: Array<number | null>;
  /** The x axis: from half a day before the first day to half a day after the last. */
  range: [number, number];
}

/**
 * Lays the route's points (`[ms, yuan]` and `[ms, trades]`, days with trades only) on every day of
 * the chosen window, so that a day without trades is a gap rather than a line across it, one sale
 * is one dot in a window of the chosen days (never an axis of years) and each day has its bar.
 * The window ends today or on the last point, whichever is later (the sandbox clock may run ahead
 * of the browser's), and starts `days - 1` days before, or earlier if a point is.
 */
export function dailySeries(
  prices: ReadonlyArray<readonly [number, number]>,
  volumes: ReadonlyArray<readonly [number, number]>,
  days: number,
  nowMs: number,
): DailySeries {
  const dayOf = (ms: number) => Math.floor(ms / 1000 / DAY_S) * DAY_S;
  const priceOn = new Map(prices.map(([at, price]) => [dayOf(at), price]));
  const volumeOn = new Map(volumes.map(([at, trades]) => [dayOf(at), trades]));
  const known = [...priceOn.keys()];
  const last = Math.max(dayOf(nowMs), ...known);
  const first = Math.min(last - (days - 1) * DAY_S, ...known);
  const series: DailySeries = {
    days: [],
    prices: [],
    volumes: [],
    range: [first - DAY_S / 2, last + DAY_S / 2],
  };
  for (let day = first; day <= last; day += DAY_S) {
    series.days.push(day);
    series.prices.push(priceOn.get(day) ?? null);
    series.volumes.push(priceOn.has(day) ? (volumeOn.get(day) ?? null) : null);
  }
  return series;
}

/**
 * The price axis's range: the prices with a margin of 15 % of their spread above and below, or of
 * 10 % of the price when there is one price (a single dot sits in the middle), never below 0.
 */
export function priceRange(prices: ReadonlyArray<number | null>): [number, number] {
  const values = prices.filter((price): price is number => price !== null);
  if (values.length === 0) return [0, 1];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const margin = high > low ? (high - low) * 0.15 : Math.max(high * 0.1, 0.01);
  return [Math.max(0, low - margin), high + margin];
}
