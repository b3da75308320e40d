import { startTransition, useEffect, useState } from "react";

/**
 * A value one part of the page hears from a room and other parts read (the doctors' queue, a session
 * that ended). It reaches its readers as a transition, as room messages do in `use-room-socket`:
 * `useSyncExternalStore` would redraw them urgently, and an urgent redraw that lands on a part still
 * hydrating (a lazy panel on a slow phone) makes React throw that part away (React #421, ADR 0048).
 */
export interface NewsStore<T> {
  /** What the page starts with, as the server drew it. */
  initial: T;
  publish(next: T): void;
  read(): T;
  subscribe(listener: () => void): () => void;
}

export function createNewsStore<T>(initial: T): NewsStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    initial,
    publish(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    read: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's value: its initial one (what the server drew with) until the page has hydrated, then the news. */
export function useNews<T>(store: NewsStore<T>): T {
  const [seen, setSeen] = useState(store.initial);
  useEffect(() => {
    const catchUp = () => startTransition(() => setSeen(store.read()));
    // What was published before this part mounted (the bell's socket may have heard first).
    catchUp();
    return store.subscribe(catchUp);
  }, [store]);
  return seen;
}
