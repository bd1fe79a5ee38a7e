import type { DomainContext } from "../../../domain/context.ts";
import type { PriceSnapshot, PriceSnapshots } from "../../../domain/market/price-snapshot.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { PrebuiltBodies, type PrebuiltJson } from "../../prebuilt-json.ts";

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
   * out for an answer that depends on the request.
   */
  answer<Value extends object>(
    ctx: DomainContext,
    variant: string | undefined,
    answer: (snapshot: PriceSnapshot) => Result<Value>,
  ): Result<Value | PrebuiltJson> | Promise<Result<Value | PrebuiltJson>> {
    const snapshot = this.#snapshots.current(ctx);
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
