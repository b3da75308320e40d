/** Where the offline copies live: read by the service worker, the page's registration and the queue. */
export interface OfflineStoreNames {
  pagesCache: string;
  assetsCache: string;
  queueDatabase: string;
}

export const OFFLINE_STORES: OfflineStoreNames = {
  pagesCache: "qoda-pages",
  assetsCache: "qoda-assets",
  queueDatabase: "qoda-offline-queue",
};
