import type { CS2Item } from "@ianlucas/cs2-lib";
import type { CatalogSource, DuplicateName } from "./catalog-types.ts";

/** Lookups over one cs2-lib version, and the report the build collects on the way. */
export class SourceIndex {
  readonly source: CatalogSource;
  readonly duplicates: DuplicateName[] = [];
  readonly skipped: Record<string, number> = {};
  readonly warnings = new Set<string>();
  readonly #byId = new Map<number, CS2Item>();
  readonly #containersOf = new Map<number, CS2Item[]>();

  constructor(source: CatalogSource) {
    this.source = source;
    for (const item of source.items) this.#byId.set(item.id, item);
    for (const container of source.items) {
      for (const id of [...(container.contents ?? []), ...(container.specials ?? [])]) {
        const list = this.#containersOf.get(id) ?? [];
        list.push(container);
        this.#containersOf.set(id, list);
      }
    }
  }

  item(id: number | undefined): CS2Item | undefined {
    return id === undefined ? undefined : this.#byId.get(id);
  }

  containersOf(item: CS2Item): CS2Item[] {
    return this.#containersOf.get(item.id) ?? [];
  }

  english(item: CS2Item): string {
    return this.source.english[item.id]?.name ?? "";
  }

  chinese(item: CS2Item): string {
    const name = this.source.chinese[item.id]?.name;
    if (name !== undefined && name !== "") return name;
    this.warn(
      `no Chinese name for cs2-lib item ${item.id} (${this.english(item)}); the English name stands in`,
    );
    return this.english(item);
  }

  skip(reason: string): null {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    return null;
  }

  warn(message: string): void {
    this.warnings.add(message);
  }
}
