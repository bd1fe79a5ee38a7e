import { useEffect, useState } from "preact/hooks";

/** A value pages share (the language, the signed-in user), redrawn where it is used when it changes. */
export class Store<T> {
  #value: T;
  readonly #listeners = new Set<() => void>();
  constructor(value: T) {
    this.#value = value;
  }
  get value(): T {
    return this.#value;
  }
  set(value: T): void {
    this.#value = value;
    for (const listener of this.#listeners) listener();
  }
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export function useStore<T>(store: Store<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((tick) => tick + 1)), [store]);
  return store.value;
}
