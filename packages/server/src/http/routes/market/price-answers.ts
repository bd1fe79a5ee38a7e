import type { DomainContext } from "../../../domain/context.ts";
import { priceListParts, type ItemShape } from "../../../domain/market/price-entries.ts";
import type { PriceSelection } from "../../../domain/market/price-query.ts";
import type { PriceSnapshot } from "../../../domain/market/price-snapshot.ts";
import type { PriceSnapshots } from "../../../domain/market/price-snapshots.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { PrebuiltBodies } from "../../prebuilt-bodies.ts";
import type { PrebuiltJson, PrebuiltOptions } from "../../prebuilt-json.ts";

/** The goods a single-goods price request names, by id or by name. */
export interface NamedGoods {
  goodsIds?: readonly number[];
  marketHashNames?: readonly string[];
}

/**
 * A whole-market answer: `key` names it (operation and the parameters that shape it); it lists
 * the entries `select` picks, each as `item` shapes it (`{ info, stat_time }`, as the operation's
 * own answer).
 */
export interface WholeMarket {
  key: string;
  select: (snapshot: PriceSnapshot) => Result<PriceSelection>;
  item: ItemShape;
}

/**
 * The price operations' answers (docs/design/market-snapshots.md#answers-made-of-parts): all read one market snapshot; a
 * whole-market answer is made once per snapshot and variant, as parts of consecutive entries: a
 * part whose entries an update kept (the same objects) is the previous answer's, bytes and gzip
 * segment, and only the others are made again, over turns of the event loop, compressed off it
 * and shared by every caller; single-goods and filtered answers are computed per request from
 * memory.
 */
export class PriceAnswers {
  readonly #snapshots: PriceSnapshots;
  readonly #bodies: PrebuiltBodies;

  constructor(snapshots: PriceSnapshots, prebuilt?: PrebuiltOptions) {
    this.#snapshots = snapshots;
    this.#bodies = new PrebuiltBodies(prebuilt);
  }

  /**
   * `variant` describes a whole-market answer; leave it out for an answer that depends on the
   * request. `goods` names the goods of a single-goods
   * answer: their figures are read from the database while the snapshot misses a change
   * (read-your-writes, docs/design/market-snapshots.md#read-your-writes).
   */
  answer<Value extends object>(
    ctx: DomainContext,
    variant: WholeMarket | undefined,
    answer: (snapshot: PriceSnapshot) => Result<Value>,
    goods?: NamedGoods,
  ): Result<Value | PrebuiltJson> | Promise<Result<Value | PrebuiltJson>> {
    const snapshot =
      goods && (goods.goodsIds?.length || goods.marketHashNames?.length)
        ? this.#snapshots.forGoods(ctx, goods)
        : this.#snapshots.current(ctx);
    // Most requests find the snapshot ready and are answered without a promise.
    return snapshot instanceof Promise
      ? snapshot.then((ready) => this.#answerFrom(ready, variant, answer))
      : this.#answerFrom(snapshot, variant, answer);
  }

  #answerFrom<Value extends object>(
    snapshot: PriceSnapshot,
    variant: WholeMarket | undefined,
    answer: (snapshot: PriceSnapshot) => Result<Value>,
  ): Result<Value | PrebuiltJson> | Promise<Result<Value | PrebuiltJson>> {
    if (variant === undefined) return answer(snapshot);
    const prebuilt = this.#bodies.get(snapshot, variant.key);
    if (prebuilt) return ok(prebuilt);
    const building = this.#bodies.building(snapshot, variant.key);
    if (building) return building.then((built) => ok(built));
    const selected = variant.select(snapshot);
    if (!selected.ok) return selected;
    const { entries, statTime } = selected.value;
    // Megabytes of JSON: the changed parts serialized, encoded and hashed over turns of the event loop.
    return this.#bodies
      .build(snapshot, variant.key, () => priceListParts(entries, statTime, variant.item))
      .then((built) => ok(built));
  }
}

/** The goods a query names with `goods_id` or `market_hash_name` (both may be given). */
export function namedGoods(query: { goods_id?: number; market_hash_name?: string }): NamedGoods {
  return {
    ...(query.goods_id !== undefined ? { goodsIds: [query.goods_id] } : {}),
    ...(query.market_hash_name !== undefined ? { marketHashNames: [query.market_hash_name] } : {}),
  };
}
