import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/** False in the server render and while hydrating, true once JavaScript has taken over. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
