import { useSyncExternalStore } from "react";

import type { RequestSummary } from "~/realtime/protocol";

// The doctors' live queue, as the page's one lobby socket (owned by the header's bell) last heard it.
// Other parts of a doctor's page read it from here instead of opening a socket of their own.
let queue: RequestSummary[] | null = null;
const listeners = new Set<() => void>();

/** The bell's socket publishes what it hears; null while it has heard nothing yet. */
export function publishLobbyQueue(requests: RequestSummary[] | null) {
  queue = requests;
  for (const listener of listeners) listener();
}

export function useLobbyQueue(): RequestSummary[] | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => queue,
    () => null,
  );
}
