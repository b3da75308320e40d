import type { OfflineStoreNames } from "~/offline/stores";

/**
 * The service worker (served at /sw.js by routes/sw[.]js.ts, serialised with `toString()`, so it uses
 * nothing from outside): a flaky network loses nothing the reader has already seen.
 * - The app's own files (/assets/, named by their content) come from the cache once fetched.
 * - The reader's own pages (dashboard, lists, a consultation and its photos) come from the network and
 *   are kept, the most recent few, to be read again without a connection.
 * - Nothing private outlives its account: the kept pages and the offline queue are forgotten when anyone
 *   signs in or out here, when the page says another account (or nobody) is signed in, and when a kept
 *   page now sends its reader to sign in. Admin and payment pages are never kept.
 */
export function runServiceWorker(scope: ServiceWorkerScope, names: OfflineStoreNames, keptPages: number) {
  const origin = scope.location.origin;
  // Pages worth reading offline, as documents or as Remix's `.data`; and the photos they show.
  const readable = /^\/(patient|doctor)\/(dashboard|consultations|consultation\/[^/.]+)(\.data)?$|^\/files\/[^/.]+$/;
  const signingInOrOut = /^\/(login|logout|register|reset-password|sign-in-link|invite|auth\/.*)(\.data)?$/;
  const accountKey = `${origin}/__offline-account`;

  const forget = async () => {
    await scope.caches.delete(names.pagesCache);
    await new Promise((done) => {
      const deleting = scope.indexedDB.deleteDatabase(names.queueDatabase);
      deleting.onsuccess = deleting.onerror = deleting.onblocked = done;
    });
  };
  const accountKept = async () => {
    const kept = await (await scope.caches.open(names.pagesCache)).match(accountKey);
    return kept ? kept.text() : null;
  };
  const signedInAs = async (account: string) => {
    if ((await accountKept()) === account) return;
    await forget();
    await (await scope.caches.open(names.pagesCache)).put(accountKey, new Response(account));
  };

  const keep = async (request: Request | string, response: Response) => {
    const pages = await scope.caches.open(names.pagesCache);
    // Only while an account has said it is signed in here, so a kept page is always that account's.
    if (!(await pages.match(accountKey))) return;
    await pages.put(request, response);
    const keys = (await pages.keys()).filter((key) => key.url !== accountKey);
    for (const old of keys.slice(0, Math.max(0, keys.length - keptPages))) await pages.delete(old);
  };

  const fromNetworkKept = async (request: Request, document: string | null) => {
    try {
      const response = await fetch(request);
      if (response.redirected && new URL(response.url).pathname === "/login") await forget();
      else if (response.ok && !response.redirected) {
        await keep(request, response.clone());
        // A page reached in the app (its `.data`) is kept as a document too, to be opened cold offline.
        const pages = await scope.caches.open(names.pagesCache);
        if (document && !(await pages.match(document))) {
          const page = await fetch(document, { credentials: "same-origin" });
          if (page.ok && !page.redirected) await keep(document, page);
        }
      }
      return response;
    } catch (offline) {
      const kept = await scope.caches.match(request);
      if (kept) return kept;
      throw offline;
    }
  };

  const fromCacheFirst = async (request: Request) => {
    const kept = await scope.caches.match(request);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.ok) await (await scope.caches.open(names.assetsCache)).put(request, response.clone());
    return response;
  };

  scope.addEventListener("install", () => void scope.skipWaiting());
  scope.addEventListener("activate", (event) => event.waitUntil(scope.clients.claim()));

  scope.addEventListener("message", (event) => {
    const message = event.data as { type?: string; account?: string; warm?: string } | null;
    if (message?.type === "forget") event.waitUntil(forget());
    if (message?.type === "account" && message.account) {
      const warm = message.warm && readable.test(message.warm) ? `${origin}${message.warm}` : null;
      event.waitUntil(
        signedInAs(message.account).then(async () => {
          // The page may have loaded before the worker watched it: then it is fetched once to be kept.
          if (!warm || (await scope.caches.match(warm))) return;
          const page = await fetch(warm, { credentials: "same-origin" });
          if (page.ok && !page.redirected) await keep(warm, page);
        }),
      );
    }
  });

  scope.addEventListener("fetch", (event) => {
    const request = event.request;
    const url = new URL(request.url);
    if (url.origin !== origin) return;
    if (request.method !== "GET") {
      // Whoever signs in or out next, the last account's pages and queue are gone first.
      if (signingInOrOut.test(url.pathname)) event.waitUntil(forget());
      return;
    }
    if (url.pathname.startsWith("/assets/")) return event.respondWith(fromCacheFirst(request));
    if (readable.test(url.pathname)) {
      const document = url.pathname.endsWith(".data") ? `${origin}${url.pathname.slice(0, -".data".length)}` : null;
      return event.respondWith(fromNetworkKept(request, document));
    }
    if (url.pathname === "/__manifest") return event.respondWith(fromNetworkKept(request, null));
    if (signingInOrOut.test(url.pathname) && url.search) event.waitUntil(forget());
  });
}

// What the worker uses of its global scope (the DOM's types do not describe a worker's).
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface MessageEventLike extends ExtendableEventLike {
  data: unknown;
}
interface ServiceWorkerScope {
  location: Location;
  caches: CacheStorage;
  indexedDB: IDBFactory;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install", listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: "activate", listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void;
}
