import { useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";

import { OFFLINE_STORES } from "~/offline/stores";

import { uploadPhoto } from "./downscale";

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

/** A photo chosen without a connection, resized, waiting to be uploaded (`key`: when it was chosen, so keys sort in order). */
export interface HeldPhoto {
  key: string;
  photo: Blob;
  name: string;
}

const photoKey = (key: string) => `photo:${key}`;
export const holdPhoto = (held: HeldPhoto) => withQueue("readwrite", (store) => store.put(held, photoKey(held.key)));
export const dropHeldPhoto = (key: string) => withQueue("readwrite", (store) => store.delete(photoKey(key)));
/** The photos waiting, oldest first (none when this browser gives no IndexedDB, as some private windows). */
export const heldPhotos = () =>
  withQueue<HeldPhoto[]>("readonly", (store) => store.getAll(IDBKeyRange.bound(photoKey(""), photoKey("\uffff")))).catch(
    (): HeldPhoto[] => [],
  );

/**
 * Uploads the waiting photos in order into `draftId` (the first makes the draft when there is none) and
 * returns the draft (null: none yet, no photos); false when the connection failed again (what is left keeps waiting).
 */
async function uploadHeldPhotos(draftId: string | null): Promise<string | null | false> {
  let draft = draftId;
  for (const held of await heldPhotos()) {
    const answer = await uploadPhoto(held.photo, held.name, draft, () => undefined);
    // No answer at all: the network went again. A refusal (never expected after resizing) is not retried.
    if (answer.error === "" && !answer.draftId) return false;
    draft = answer.draftId ?? draft;
    await dropHeldPhoto(held.key);
  }
  return draft;
}

/**
 * A new request sent without a connection waits in this browser (IndexedDB), said so on the page, and
 * is sent by itself, once, when the connection returns (here or on the next visit to the wizard). Its
 * submission key makes a second arrival harmless all the same.
 */
export function useHeldRequest() {
  const submit = useSubmit();
  const [waiting, setWaiting] = useState(false);
  // Photos chosen offline at step 1 go first, so the request joins their draft.
  const [photosWaiting, setPhotosWaiting] = useState(false);
  // The sender as the effect made it, for a request held just now.
  const sendNow = useRef<(() => Promise<void>) | null>(null);
  useEffect(() => {
    // One sender at a time: the network's return and a request held just now may call it together.
    let sending = false;
    const sendHeld = async () => {
      if (sending) return;
      sending = true;
      try {
        await sendHeldOnce();
      } finally {
        sending = false;
      }
    };
    const sendHeldOnce = async () => {
      const photos = await heldPhotos();
      setPhotosWaiting(photos.length > 0);
      const held = await withQueue<HeldRequest | undefined>("readonly", (store) => store.get(KEY));
      if (!held) return;
      setWaiting(true);
      if (!navigator.onLine) return;
      const fields = new URLSearchParams(held.fields);
      const draftId = await uploadHeldPhotos(fields.get("draftId"));
      if (draftId === false) return;
      if (draftId) fields.set("draftId", draftId);
      await withQueue("readwrite", (store) => store.delete(KEY));
      setWaiting(false);
      submit(fields, { method: "post", action: held.action });
    };
    sendNow.current = sendHeld;
    void sendHeld();
    window.addEventListener("online", sendHeld);
    return () => window.removeEventListener("online", sendHeld);
  }, [submit]);
  /** Keeps the form's request when there is no connection or photos still wait (and says so); false when it can go now. */
  const holdWhenOffline = useCallback(
    (form: FormData) => {
      if (navigator.onLine && !photosWaiting) return false;
      const held: HeldRequest = {
        action: location.pathname + location.search,
        fields: [...form].map(([name, value]) => [name, String(value)]),
      };
      void withQueue("readwrite", (store) => store.put(held, KEY)).then(() => sendNow.current?.());
      return true;
    },
    [photosWaiting],
  );
  return { waiting, holdWhenOffline };
}
