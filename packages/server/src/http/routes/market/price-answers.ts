import type { DomainContext } from "../../../domain/context.ts";
import type { PriceSnapshot, PriceSnapshots } from "../../../domain/market/price-snapshot.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { PrebuiltBodies, type PrebuiltJson } from "../../prebuilt-json.ts";

/** The goods a single-goods price request names, by id or by name. */
export interface NamedGoods {
  goodsIds?: readonly number[];
  marketHashNames?: readonly string[];
}

/**
 * The price operations' answers (docs/design.md section 4): all read one market snapshot; a
 * whole-market answer is serialized and compressed once per snapshot and variant and shared by
 * every caller, while single-goods and filtered answers are computed per request from memory.
 */
export class PriceAnswers {
  readonly #snapshots: PriceSnapshots;
  readonly #bodies = new PrebuiltBodies();

  constructor(snapshots: PriceSnapshots) {
    this.#snapshots = snapshots;
  }

  /**
   * `variant` names a whole-market answer (operation and the parameters that shape it); leave it
   * out for an answer that depends on the request. `goods` names the goods of a single-goods
   * answer: their figures are read from the database while the snapshot misses a change
   * (read-your-writes, docs/design.md section 4).
   */
  answer<Value extends object>(
    ctx: DomainContext,
    variant: string | undefined,
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
    variant: string | undefined,
    answer: (snapshot: PriceSnapshot) => Result<Value>,
  ): Result<Value | PrebuiltJson> {
    if (variant === undefined) return answer(snapshot);
    const prebuilt = this.#bodies.get(snapshot, variant);
    if (prebuilt) return ok(prebuilt);
    const computed = answer(snapshot);
    return computed.ok ? ok(this.#bodies.put(snapshot, variant, computed.value)) : computed;
  }
}

/** The goods a query names with `goods_id` or `market_hash_name` (both may be given). */
export function namedGoods(query: { goods_id?: number; market_hash_name?: string }): NamedGoods {
  return {
    ...(query.goods_id !== undefined ? { goodsIds: [query.goods_id] } : {}),
    ...(query.market_hash_name !== undefined ? { marketHashNames: [query.market_hash_name] } : {}),
  };
}
