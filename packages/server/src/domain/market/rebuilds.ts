import type { DomainContext } from "../context.ts";

/**
 * Rebuilds of an in-memory value (a price snapshot, the catalog index), one at a time. While one
 * runs, callers get the value there is when `serveStale` is on, or wait for the new one when it is
 * off (docs/design/market-snapshots.md#when-a-snapshot-is-rebuilt). A failed rebuild is logged and leaves the value there is; the
 * next caller that finds it out of date tries again.
 */
export class Rebuilds<Value> {
  readonly #serveStale: boolean;
  readonly #what: string;
  #building: Promise<Value> | undefined;

  constructor(what: string, serveStale: boolean) {
    this.#what = what;
    this.#serveStale = serveStale;
  }

  /** Starts `build` unless a rebuild runs already; answers `current` or the rebuilt value. */
  next(ctx: DomainContext, current: Value | undefined, build: () => Promise<Value>): Promise<Value> {
    if (!this.#building) {
      const building = build().finally(() => (this.#building = undefined));
      building.catch((error: unknown) =>
        ctx.log.error({ err: error }, `the ${this.#what} could not be rebuilt`),
      );
      this.#building = building;
    }
    return current !== undefined && this.#serveStale ? Promise.resolve(current) : this.#building;
  }
}
