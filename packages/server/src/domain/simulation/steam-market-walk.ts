import type { Fen } from "@skinmarket/contract";
import { DemoRandom, STREAM } from "./demo-random.ts";
import type { SimulatedGoods } from "./simulation-state.ts";

/**
 * The sandbox's Steam market next to ours (docs/design/steam-face.md#market-prices). Steam's
 * prices stand above a third-party market's (its wallet money cannot be withdrawn, so sellers ask
 * more there): a goods' Steam price is its price on our market times a ratio that walks at random
 * between `STEAM_RATIO.min` and `STEAM_RATIO.max`.
 */
export const STEAM_RATIO = { min: 1.1, max: 1.5 } as const;

/** The ratio's step volatility (standard deviation of its log per simulator step). */
const RATIO_VOLATILITY = 0.01;

/** The draws of the simulator's Steam market at a step: their own stream, the agents' draws untouched. */
export const STEAM_STEP_STREAM = 106;

/** Where a goods' ratio starts: fixed by the seed and the goods, between 1.15 and 1.45. */
export function startingSteamRatio(seed: number, goodsId: number): number {
  return 1.15 + 0.3 * new DemoRandom(seed, STREAM.steamMarket, goodsId).next();
}

/**
 * Units sold on Steam's market in a day at this price: cheap goods sell thousands, dear ones a
 * few, times a draw (log-normal, sd 0.4).
 */
export function steamDailyVolume(price: Fen, random: DemoRandom): number {
  const base = 3000 / Math.max(1, price / 100) ** 0.8;
  return Math.max(0, Math.round(base * Math.exp(0.4 * random.normal())));
}

/**
 * One step of the Steam market for the simulated goods: each ratio (its price now over the goods'
 * fair value, or its starting ratio for a goods without a price) takes a step and is kept within
 * `STEAM_RATIO`; the volume is drawn again. Draws come in the goods' order.
 */
export function walkSteamPrices(
  goods: readonly SimulatedGoods[],
  current: ReadonlyMap<number, Fen>,
  seed: number,
  random: DemoRandom,
): Array<{ goodsId: number; price: Fen; volume: number }> {
  return goods.map((one) => {
    const now = current.get(one.goodsId);
    const ratio = now === undefined ? startingSteamRatio(seed, one.goodsId) : now / one.fair;
    const stepped = Math.min(
      STEAM_RATIO.max,
      Math.max(STEAM_RATIO.min, ratio * Math.exp(RATIO_VOLATILITY * random.normal())),
    );
    const price = Math.max(3, Math.round(one.fair * stepped));
    return { goodsId: one.goodsId, price, volume: steamDailyVolume(price, random) };
  });
}
