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
  async answer<Value extends object>(
    ctx: DomainContext,
    variant: string | undefined,
    answer: (snapshot: PriceSnapshot) => Result<Value>,
  ): Promise<Result<Value | PrebuiltJson>> {
    const snapshot = await this.#snapshots.current(ctx);
    if (variant === undefined) return answer(snapshot);
    const prebuilt = this.#bodies.get(snapshot, variant);
    if (prebuilt) return ok(prebuilt);
    const computed = answer(snapshot);
    return computed.ok ? ok(this.#bodies.put(snapshot, variant, computed.value)) : computed;
  }
}
