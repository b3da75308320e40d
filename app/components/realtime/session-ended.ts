import { createNewsStore, useNews } from "./news-store";

// Set once a room says the session that opened this page's sockets has ended (signed out elsewhere,
// timed out, deactivated): the page stops listening and says so.
const sessionEnded = createNewsStore(false);

export function markSessionEnded() {
  sessionEnded.publish(true);
}

export function useSessionEnded() {
  return useNews(sessionEnded);
}
