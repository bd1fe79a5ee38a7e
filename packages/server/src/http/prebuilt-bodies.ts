import { PrebuiltJson, PrebuiltVariant, type PartSource, type PrebuiltOptions } from "./prebuilt-json.ts";

/**
 * The prebuilt answers of the current snapshots: one per snapshot and variant (operation and the
 * parameters that shape a whole-market answer), built on first use and dropped with the snapshot.
 * A variant's new answer reuses the parts of the one it replaces that did not change.
 */
export class PrebuiltBodies {
  readonly #bySnapshot = new WeakMap<object, Map<string, PrebuiltJson>>();
  /** Answers being built (`build`), per snapshot and variant. */
  readonly #pending = new WeakMap<object, Map<string, Promise<PrebuiltJson>>>();
  readonly #variants = new Map<string, PrebuiltVariant>();
  readonly #options: PrebuiltOptions;

  constructor(options: PrebuiltOptions = {}) {
    this.#options = options;
  }

  get(snapshot: object, variant: string): PrebuiltJson | undefined {
    return this.#bySnapshot.get(snapshot)?.get(variant);
  }

  /** The answer of `variant` for `snapshot` while it is being built (`build`). */
  building(snapshot: object, variant: string): Promise<PrebuiltJson> | undefined {
    return this.#pending.get(snapshot)?.get(variant);
  }

  /**
   * The answer of `variant` for `snapshot`, made of `parts` over turns of the event loop
   * (`PrebuiltJson.ofParts`, reusing the parts of the variant's latest answer) unless it is built
   * or being built already: callers meanwhile share the one build.
   */
  build(snapshot: object, variant: string, parts: () => Iterable<PartSource>): Promise<PrebuiltJson> {
    let pending = this.#pending.get(snapshot);
    if (!pending) this.#pending.set(snapshot, (pending = new Map()));
    const started = pending.get(variant);
    if (started) return started;
    const built = PrebuiltJson.ofParts(parts(), this.#variant(variant)).then(
      (prebuilt) => {
        const kept = this.#store(snapshot, variant, prebuilt);
        pending.delete(variant);
        return kept;
      },
      (error: unknown) => {
        pending.delete(variant);
        throw error;
      },
    );
    pending.set(variant, built);
    return built;
  }

  /** `body`: the answer, or its JSON already serialized without the closing brace; one part. */
  put(snapshot: object, variant: string, body: object | string): PrebuiltJson {
    const json = typeof body === "string" ? body : JSON.stringify(body).slice(0, -1);
    return this.#store(snapshot, variant, PrebuiltJson.ofJson(json, this.#variant(variant)));
  }

  #variant(key: string): PrebuiltVariant {
    let variant = this.#variants.get(key);
    if (!variant) this.#variants.set(key, (variant = new PrebuiltVariant(this.#options)));
    return variant;
  }

  #store(snapshot: object, variant: string, prebuilt: PrebuiltJson): PrebuiltJson {
    // The same bytes as the latest answer: that one, with what is compressed of it already.
    const kept = prebuilt.adopt();
    const stored = kept.sameAs(prebuilt) ? kept : prebuilt;
    let bodies = this.#bySnapshot.get(snapshot);
    if (!bodies) this.#bySnapshot.set(snapshot, (bodies = new Map()));
    bodies.set(variant, stored);
    return stored;
  }
}
