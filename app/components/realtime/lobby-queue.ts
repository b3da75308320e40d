import type { RequestSummary } from "~/realtime/protocol";

import { createNewsStore, useNews } from "./news-store";

// The doctors' live queue, as the page's one lobby socket (owned by the header's bell) last heard it.
// Other parts of a doctor's page read it from here instead of opening a socket of their own.
const queue = createNewsStore<RequestSummary[] | null>(null);

/** The bell's socket publishes what it hears; null while it has heard nothing yet. */
export function publishLobbyQueue(requests: RequestSummary[] | null) {
  queue.publish(requests);
}

export function useLobbyQueue(): RequestSummary[] | null {
  return useNews(queue);
}
