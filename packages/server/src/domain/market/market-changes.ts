/**
 * What an instance knows of changes to the market since it built a snapshot (docs/design.md
 * section 4). Every transaction committed on this instance counts as a change (the snapshot does
 * not guess which writes touch listings or buy orders: rebuilding is cheap, a stale price is not),
 * and so does every announcement heard from another instance. An instance announces its own
 * commits through `announce`, which the server wires to PostgreSQL `NOTIFY` at a bounded rate.
 */
export class MarketChanges {
  #version = 0;
  readonly #announce: (() => void) | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(announce?: () => void) {
    this.#announce = announce;
  }

  /** Grows with every change; a snapshot built at one version is current while it stays the same. */
  get version(): number {
    return this.#version;
  }

  /** A transaction committed on this instance. */
  committed(): void {
    this.#version += 1;
    this.#announce?.();
    this.#tell();
  }

  /** Another instance committed a transaction. */
  heard(): void {
    this.#version += 1;
    this.#tell();
  }

  /**
   * Calls `listener` after every change (the snapshots schedule their rebuild from it, so that a
   * change is in them within a second even when no request asks); the answer stops the calls.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
