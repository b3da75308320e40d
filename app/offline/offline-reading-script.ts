import type { OfflineStoreNames } from "~/offline/stores";

/**
 * The page's side of offline reading, as one small inline script (root serialises it with `toString()`,
 * so no page downloads it as JavaScript): a signed-in patient or doctor gets the service worker once the
 * page has loaded and the browser is idle, and tells it whose pages it keeps; anyone else (signed out,
 * an admin) leaves nothing of a previous account here and no worker behind.
 */
export function offlineReading(account: string | null, names: OfflineStoreNames) {
  const workers = navigator.serviceWorker;
  if (!workers) return;
  if (!account) {
    void workers.getRegistration().then(async (registration) => {
      if (!registration) return;
      await caches.delete(names.pagesCache);
      indexedDB.deleteDatabase(names.queueDatabase);
      await registration.unregister();
    });
    return;
  }
  const register = async () => {
    await workers.register("/sw.js");
    const ready = await workers.ready;
    // The worker keeps this page too (fetched again if it loaded before the worker watched).
    ready.active?.postMessage({ type: "account", account, warm: location.pathname });
  };
  const whenIdle = () => (window.requestIdleCallback ?? setTimeout)(() => void register());
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}
