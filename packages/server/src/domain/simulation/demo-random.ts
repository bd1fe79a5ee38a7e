/**
 * The demo market's randomness: every draw comes from the seed and the position of the thing
 * drawn (the 1,234th listing, the 56th trade), never from a shared sequence, so that the same seed
 * builds the same world whatever the batch size and however the work is split.
 */

/** A 32-bit hash of a few integers (murmur3's finalizer over a running mix). */
export function hash32(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h ^ Math.floor(value / 0x1_0000_0000), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Streams of the demo market's generator: each kind of thing draws from its own. */
export const STREAM = { trader: 1, coverage: 2, trade: 3, listing: 4, buyOrder: 5, steamMarket: 6 } as const;

/** A small, fast generator (sfc32) for the draws of one thing. */
export class DemoRandom {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(...key: number[]) {
    this.#a = hash32(1, ...key);
    this.#b = hash32(2, ...key);
    this.#c = hash32(3, ...key);
    this.#d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A standard normal draw (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

/** Draws indexes in proportion to weights (binary search over the running totals). */
export class WeightedPicker {
  readonly #totals: Float64Array;

  constructor(weights: readonly number[]) {
    this.#totals = new Float64Array(weights.length);
    let total = 0;
    weights.forEach((weight, index) => {
      total += weight;
      this.#totals[index] = total;
    });
  }

  pick(random: DemoRandom): number {
    const target = random.next() * this.#totals[this.#totals.length - 1]!;
    let low = 0;
    let high = this.#totals.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#totals[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
