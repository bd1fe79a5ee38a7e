import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY_S, dailySeries, priceRange } from "../src/pages/item/chart-series.ts";

const DAY_MS = DAY_S * 1000;
/** Noon of a UTC day: the chart's window ends on that day. */
const NOW = Date.UTC(2026, 10, 28, 12);
const TODAY = Date.UTC(2026, 10, 28);

test("no sales: every day of the window, none with a price or a bar", () => {
  const series = dailySeries([], [], 7, NOW);
  assert.equal(series.days.length, 7);
  assert.equal(series.days.at(-1), TODAY / 1000);
  assert.deepEqual(series.prices, Array(7).fill(null));
  assert.deepEqual(series.volumes, Array(7).fill(null));
});

test("one sale: one dot in a window of the chosen days, never an axis of years", () => {
  const series = dailySeries([[TODAY - 3 * DAY_MS, 135]], [[TODAY - 3 * DAY_MS, 1]], 30, NOW);
  assert.equal(series.days.length, 30);
  assert.equal(series.prices.filter((price) => price !== null).length, 1);
  assert.equal(series.prices[26], 135);
  assert.equal(series.volumes[26], 1);
  // Half a day either side, so the first and last days' bars are whole.
  assert.equal(series.range[1] - series.range[0], 30 * DAY_S);
  const [low, high] = priceRange(series.prices);
  assert.ok(low < 135 && high > 135 && high - low < 30, `${low}-${high} holds 135 closely`);
});

test("sales on two days with empty days between: gaps (null), never a line across them", () => {
  const series = dailySeries(
    [
      [TODAY - 3 * DAY_MS, 2],
      [TODAY, 3],
    ],
    [
      [TODAY - 3 * DAY_MS, 2],
      [TODAY, 1],
    ],
    7,
    NOW,
  );
  assert.deepEqual(series.prices.slice(-4), [2, null, null, 3]);
  assert.deepEqual(series.volumes.slice(-4), [2, null, null, 1]);
  assert.deepEqual(priceRange(series.prices), [1.85, 3.15]);
});

test("a point after the browser's today (the sandbox clock ahead) ends the window", () => {
  const ahead = TODAY + 2 * DAY_MS;
  const series = dailySeries([[ahead, 5]], [[ahead, 4]], 7, NOW);
  assert.equal(series.days.length, 7);
  assert.equal(series.days.at(-1), ahead / 1000);
  assert.equal(series.prices.at(-1), 5);
});
