import { useSyncExternalStore } from "react";

// Set once a room says the session that opened this page's sockets has ended (signed out elsewhere,
// timed out, deactivated): the page stops listening and says so.
let sessionEnded = false;
const listeners = new Set<() => void>();

export function markSessionEnded() {
  if (sessionEnded) return;
  sessionEnded = true;
  for (const listener of listeners) listener();
}

export function useSessionEnded() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => sessionEnded,
    () => false,
  );
}
