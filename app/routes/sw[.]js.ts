import { runServiceWorker } from "~/offline/service-worker";
import { OFFLINE_STORES } from "~/offline/stores";

/** How many of the reader's pages (and photos) are kept for reading offline. */
const KEPT_PAGES = 40;

// The service worker, served by the Worker so it carries the app's CSP (its own fetches are same-origin).
// (The server build names functions with esbuild's `__name`; the worker gets a no-op for it.)
const SOURCE = `let __name=(f)=>f;(${runServiceWorker.toString()})(self,${JSON.stringify(OFFLINE_STORES)},${KEPT_PAGES});`;

export function loader() {
  return new Response(SOURCE, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
