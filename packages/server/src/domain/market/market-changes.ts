import type { ChangedGoods } from "../context.ts";

/**
 * The most goods one notice to the other instances names: a batch of more is sent in several
 * notices, each well under PostgreSQL's 8,000-byte payload.
 */
export const MAX_CHANGED_GOODS = 500;

/**
 * What an instance knows of changes to the market since it built a snapshot (docs/design/market-snapshots.md#other-instances). Every transaction committed on this instance counts as a change, with the goods it
 * wrote (a transaction that names none counts as a change to everything: the snapshot does not
 * guess which writes touch listings or buy orders), and so does every announcement heard from
 * another instance. However many goods a change names, they are kept by id: the snapshot re-reads
 * them in slices, never the whole market for their number. An instance announces its own commits
 * through `announce`, which the server wires to PostgreSQL `NOTIFY` in batches at a bounded rate
 * (`batched`).
 */
export class MarketChanges {
  #version = 0;
  /** The version of the last change to everything. */
  #allAt = 0;
  /** The version of the last change to the liquidity ranks. */
  #ranksAt = 0;
  /** Goods id to the version of its last change, since the last change to everything. */
  readonly #goodsAt = new Map<number, number>();
  readonly #announce: ((goods: ChangedGoods) => void) | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(announce?: (goods: ChangedGoods) => void) {
    this.#announce = announce;
  }

  /** Grows with every change; a snapshot built at one version is current while it stays the same. */
  get version(): number {
    return this.#version;
  }

  /** A transaction committed on this instance, writing `goods` (none: not a market change). */
  committed(goods: ChangedGoods = "all"): void {
    if (typeof goods !== "string" && goods.length === 0) return;
    this.#count(goods);
    this.#announce?.(goods);
    this.#tell();
  }

  /** Another instance committed a transaction writing `goods`. */
  heard(goods: ChangedGoods = "all"): void {
    if (typeof goods !== "string" && goods.length === 0) return;
    this.#count(goods);
    this.#tell();
  }

  /** The goods changed after `version`: `"all"` when everything may have. */
  changedSince(version: number): "all" | Set<number> {
    if (this.#allAt > version) return "all";
    const goods = new Set<number>();
    if (this.#version === version) return goods;
    for (const [goodsId, at] of this.#goodsAt) if (at > version) goods.add(goodsId);
    return goods;
  }

  /** Whether a change to everything was counted after `version`. */
  everythingSince(version: number): boolean {
    return this.#allAt > version;
  }

  /** Whether the liquidity ranks (or everything) may have changed after `version`. */
  ranksChangedSince(version: number): boolean {
    return this.#ranksAt > version || this.#allAt > version;
  }

  /** Whether a goods may have changed after `version`. */
  goodsChangedSince(goodsId: number, version: number): boolean {
    return this.#allAt > version || (this.#goodsAt.get(goodsId) ?? 0) > version;
  }

  /**
   * Calls `listener` after every change (the snapshots schedule their rebuild from it, so that a
   * change is in them within a second even when no request asks); the answer stops the calls.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #count(goods: ChangedGoods): void {
    this.#version += 1;
    if (goods === "all") {
      this.#allAt = this.#version;
      this.#goodsAt.clear();
    } else if (goods === "ranks") this.#ranksAt = this.#version;
    else for (const goodsId of goods) this.#goodsAt.set(goodsId, this.#version);
  }

  #tell(): void {
    for (const listener of this.#listeners) listener();
  }
}

/**
 * Calls `send` soon after the first call and then at most once per `intervalMs`, however often it
 * is called: a burst of commits costs one announcement, and a commit during the pause is announced
 * when it ends.
 */
export function throttled(send: () => Promise<void>, intervalMs: number): () => void {
  let lastSent = Number.NEGATIVE_INFINITY;
  let pending: NodeJS.Timeout | undefined;
  return () => {
    if (pending) return;
    pending = setTimeout(
      () => {
        pending = undefined;
        lastSent = Date.now();
        void send();
      },
      Math.max(0, lastSent + intervalMs - Date.now()),
    );
    pending.unref();
  };
}

/**
 * Announces changes as `throttled` does, in batches: the goods of every change since the last
 * announcement, in notices of at most `MAX_CHANGED_GOODS` goods each, and `"ranks"` when the
 * liquidity ranks changed; or `"all"` alone when one of them was everything.
 */
export function batched(
  send: (goods: ChangedGoods) => Promise<void>,
  intervalMs: number,
): (goods: ChangedGoods) => void {
  let all = false;
  let ranks = false;
  const goods = new Set<number>();
  const flush = throttled(async () => {
    const ids = [...goods];
    const batches: ChangedGoods[] = all ? ["all"] : ranks ? ["ranks"] : [];
    if (!all)
      for (let start = 0; start < ids.length; start += MAX_CHANGED_GOODS)
        batches.push(ids.slice(start, start + MAX_CHANGED_GOODS));
    all = false;
    ranks = false;
    goods.clear();
    for (const batch of batches) await send(batch);
  }, intervalMs);
  return (changed) => {
    if (changed === "all") all = true;
    else if (changed === "ranks") ranks = true;
    else if (!all) for (const goodsId of changed) goods.add(goodsId);
    flush();
  };
}
