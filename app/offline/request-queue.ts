import { useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";

import { OFFLINE_STORES } from "~/offline/stores";

/** A request written without a connection: the form's fields (its submission key among them) and where it goes. */
interface HeldRequest {
  action: string;
  fields: Array<[string, string]>;
}

const STORE = "requests";
const KEY = "new-consultation";

/** One step on the queue's database; the connection closes after it, so signing out can delete it. */
function withQueue<T>(mode: IDBTransactionMode, step: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(OFFLINE_STORES.queueDatabase, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const database = opening.result;
      const request = step(database.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.transaction!.oncomplete = request.transaction!.onabort = () => database.close();
    };
  });
}

/**
 * A new request sent without a connection waits in this browser (IndexedDB), said so on the page, and
 * is sent by itself, once, when the connection returns (here or on the next visit to the wizard). Its
 * submission key makes a second arrival harmless all the same.
 */
export function useHeldRequest() {
  const submit = useSubmit();
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    const sendHeld = async () => {
      const held = await withQueue<HeldRequest | undefined>("readonly", (store) => store.get(KEY));
      if (!held) return;
      setWaiting(true);
      if (!navigator.onLine) return;
      await withQueue("readwrite", (store) => store.delete(KEY));
      setWaiting(false);
      submit(new URLSearchParams(held.fields), { method: "post", action: held.action });
    };
    void sendHeld();
    window.addEventListener("online", sendHeld);
    return () => window.removeEventListener("online", sendHeld);
  }, [submit]);
  /** Keeps the form's request when there is no connection (and says so); false when it can go now. */
  const holdWhenOffline = useCallback((form: FormData) => {
    if (navigator.onLine) return false;
    const held: HeldRequest = {
      action: location.pathname + location.search,
      fields: [...form].map(([name, value]) => [name, String(value)]),
    };
    void withQueue("readwrite", (store) => store.put(held, KEY)).then(() => setWaiting(true));
    return true;
  }, []);
  return { waiting, holdWhenOffline };
}
