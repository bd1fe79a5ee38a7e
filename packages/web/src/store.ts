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
  const value = store.value;
  const [, setTick] = useState(0);
  useEffect(() => {
    const redraw = () => setTick((tick) => tick + 1);
    const unsubscribe = store.subscribe(redraw);
    // Effects run after the first paint: a change between the render and this subscription (the
    // signed-in user answered meanwhile) would otherwise never be drawn.
    if (store.value !== value) redraw();
    return unsubscribe;
  }, [store]);
  return value;
}
