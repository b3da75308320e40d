import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { useHydrated } from "~/components/use-hydrated";
import { MAX_PHOTOS_PER_REQUEST } from "~/domain/constants";
import type { PhotoQualityIssue } from "~/domain/photo-quality";
import type { PhotoStepWords } from "~/domain/views/photo-step-words";

import { type PhotoDescription, preparePhoto, uploadPhoto } from "./downscale";
import { PhotoDescriptionFields, PhotoDescriptionForm } from "./photo-description-form";
import { PhotoGuide } from "./photo-guide";
import type { DescribedPhoto } from "./photo-words";
import { dropHeldPhoto, heldPhotos, holdPhoto } from "./request-queue";

/**
 * "review": the photo looks too dark or blurry; it waits for the patient to retake it or send it anyway.
 * "waiting": chosen without a connection, it waits in this browser and goes when the network returns.
 */
type UploadStatus = "pending" | "review" | "uploading" | "done" | "error" | "waiting";
interface Upload {
  key: string;
  name: string;
  preview: string;
  status: UploadStatus;
  progress: number;
  error?: string;
  photoId?: string;
  issue?: PhotoQualityIssue;
  /** The resized photo, kept while it waits for the patient's word. */
  prepared?: Blob;
  /** What it shows, when chosen in the server's form before the page hydrated. */
  description?: PhotoDescription;
}

const ACCEPTED = "image/jpeg,image/png,image/webp";
const PICKER_CLASS = "btn btn-outline focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-primary";

/**
 * Step 1: optional photos, after a short guide. Without JavaScript, a multipart form; with it, each photo
 * is resized, checked for darkness and blur (a warning, never a block) and uploaded, with its progress.
 * Each photo then says what it shows: its kind and body area.
 */
export function PhotoStep({
  draftId: initialDraftId,
  storedPhotos,
  words,
  refusals,
  startedAgain,
  onPhotoCount,
  followUpOf,
}: {
  draftId: string | null;
  storedPhotos: DescribedPhoto[];
  words: PhotoStepWords;
  refusals: string[];
  /** Started again from a request declined for its photos: its words are kept, new photos wanted. */
  startedAgain: boolean;
  /** How many photos are uploaded now (for the sidebar), told whenever it changes. */
  onPhotoCount: (count: number) => void;
  /** The consultation this request follows up, carried to the next step in the address. */
  followUpOf: string | null;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [draftId, setDraftId] = useState(initialDraftId);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef(Promise.resolve());
  const draftRef = useRef(initialDraftId);
  // Photos removed before their turn in the queue must never be sent.
  const cancelled = useRef(new Set<string>());
  const [removedIds, setRemovedIds] = useState<string[]>([]);
  const cameraInput = useRef<HTMLInputElement>(null);
  // The server's upload form, shown until the page hydrates: what a patient chose there meanwhile (on a
  // slow phone, seconds) is taken over by the pickers instead of vanishing with the form.
  const earlyForm = useRef<HTMLFormElement | null>(null);

  const carried = followUpOf ? `&followUp=${followUpOf}` : "";
  const update = (key: string, change: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  const uploadedHere = new Set(uploads.map((upload) => upload.photoId).filter(Boolean));
  const fromServer = storedPhotos.filter(({ id }) => !uploadedHere.has(id) && !removedIds.includes(id));
  const activeCount = fromServer.length + uploads.filter((upload) => upload.status !== "error").length;
  const busy = uploads.some((upload) => upload.status === "pending" || upload.status === "uploading");
  const uploadedCount = fromServer.length + uploads.filter((upload) => upload.status === "done").length;
  useEffect(() => onPhotoCount(uploadedCount), [uploadedCount, onPhotoCount]);

  async function send(key: string, photo: Blob, fileName: string, description?: PhotoDescription) {
    if (cancelled.current.has(key)) return;
    // No connection: the photo waits in this browser (step 2 or the network's return sends it).
    const wait = async () => {
      // Said to wait once it is kept (without IndexedDB it waits in this page only).
      await holdPhoto({ key, photo, name: fileName }).then(
        () => kept.current.add(key),
        () => undefined,
      );
      update(key, { status: "waiting", prepared: photo, progress: 0 });
    };
    if (!navigator.onLine) return wait();
    update(key, { status: "uploading", prepared: undefined });
    const answer = await uploadPhoto(photo, fileName, draftRef.current, (progress) => update(key, { progress }), description);
    if (answer.error === "" && !answer.draftId) return wait();
    letGo(key);
    if (answer.draftId && !draftRef.current) {
      draftRef.current = answer.draftId;
      setDraftId(answer.draftId);
      // The address gains the draft, so a reload finds it. Written into history, not navigated to: nothing
      // needs loading again, and a router navigation cut short by the patient's "Next" rejects unheard.
      window.history.replaceState(window.history.state, "", `?step=1&draft=${answer.draftId}${carried}`);
    }
    const photoId = answer.photoIds?.[0];
    if (photoId) update(key, { status: "done", progress: 1, photoId });
    else update(key, { status: "error", error: answer.errors?.[0] || answer.error || t("request.errors.uploadFailed") });
  }

  // Photos kept from a visit without a connection come back (and go, once online).
  const latest = useRef(uploads);
  const resending = useRef(new Set<string>());
  // Photos kept in IndexedDB, let go of once uploaded or removed.
  const kept = useRef(new Set<string>());
  const letGo = (key: string) => {
    if (kept.current.delete(key)) void dropHeldPhoto(key).catch(() => undefined);
  };
  useEffect(() => {
    latest.current = uploads;
  }, [uploads]);
  useEffect(() => {
    const sendWaiting = () => {
      for (const upload of latest.current.filter((item) => item.status === "waiting" && !resending.current.has(item.key))) {
        resending.current.add(upload.key);
        queue.current = queue.current
          .then(() => send(upload.key, upload.prepared!, upload.name))
          .finally(() => resending.current.delete(upload.key));
      }
    };
    void heldPhotos().then((held) => {
      for (const { key } of held) kept.current.add(key);
      const shown = new Set(latest.current.map((upload) => upload.key));
      const restored = held
        .filter(({ key }) => !shown.has(key))
        .map(({ key, photo, name }): Upload => ({
          key,
          name,
          preview: URL.createObjectURL(photo),
          status: "waiting",
          progress: 0,
          prepared: photo,
        }));
      latest.current = [...latest.current, ...restored];
      setUploads(latest.current);
      sendWaiting();
    });
    window.addEventListener("online", sendWaiting);
    return () => window.removeEventListener("online", sendWaiting);
    // Once per visit of the step; `send` reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function addFiles(files: FileList | null, description?: PhotoDescription) {
    const room = MAX_PHOTOS_PER_REQUEST - activeCount;
    const chosen = [...(files ?? [])];
    const added: Upload[] = chosen.map((file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      name: file.name,
      preview: URL.createObjectURL(file),
      status: index < room ? "pending" : "error",
      progress: 0,
      error: index < room ? undefined : t("request.errors.tooManyPhotos"),
      description,
    }));
    setUploads((all) => [...all, ...added]);
    // One at a time: the first upload creates the draft the others join, and a slow line is not split.
    added.forEach((upload, index) => {
      if (upload.status !== "pending") return;
      const file = chosen[index]!;
      queue.current = queue.current.then(async () => {
        if (cancelled.current.has(upload.key)) return;
        const { photo, issue } = await preparePhoto(file);
        // A dark or blurry photo waits for the patient's word; the others go on meanwhile.
        if (issue) update(upload.key, { status: "review", issue, prepared: photo });
        else await send(upload.key, photo, file.name, description);
      });
    });
  }

  // Once, as the page hydrates: the form is still in hand (a removed element keeps its files).
  useEffect(() => {
    const form = earlyForm.current;
    const files = form?.querySelector<HTMLInputElement>('input[type="file"]')?.files;
    if (!form || !files?.length) return;
    const chosen = new FormData(form);
    addFiles(files, { photoKind: String(chosen.get("photoKind") ?? ""), bodyArea: String(chosen.get("bodyArea") ?? "") });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function forget(upload: Upload) {
    cancelled.current.add(upload.key);
    letGo(upload.key);
    setUploads((all) => all.filter((item) => item.key !== upload.key));
  }

  const nextHref = draftId ? `?step=2&draft=${draftId}${carried}` : `?step=2${carried}`;
  return (
    <section className="flex flex-col gap-4" aria-labelledby="photos-heading">
      <h2 id="photos-heading" className="text-xl font-bold" data-focus-on-arrival>
        {t("request.photos.title")}
      </h2>
      <p className="text-sm text-base-content/80">{t("request.photos.intro")}</p>
      <PhotoGuide guide={words.guide} />
      {startedAgain ? (
        <div role="status" className="alert alert-info">
          {t("request.photos.startedAgain")}
        </div>
      ) : null}
      {refusals.length ? (
        <div role="alert" className="alert alert-error flex flex-col items-start">
          <p className="font-bold">{t("request.errors.uploadFailed")}</p>
          {refusals.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}

      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="photo-list">
        {fromServer.map((photo) => (
          <li key={photo.id} className="card bg-base-200" data-testid="stored-photo">
            <img src={`/files/${photo.id}`} alt={t("request.photos.yourPhoto")} className="h-28 w-full rounded-t-box object-cover" />
            <PhotoDescriptionForm photoId={photo.id} words={words} photoKind={photo.photoKind} bodyArea={photo.bodyArea} />
            <Form method="post" className="p-2" preventScrollReset>
              <input type="hidden" name="draftId" value={draftId ?? ""} />
              <input type="hidden" name="photoId" value={photo.id} />
              <button type="submit" name="intent" value="remove-photo" className="btn btn-ghost btn-xs w-full">
                {t("request.photos.remove")}
              </button>
            </Form>
          </li>
        ))}
        {uploads.map((upload) => (
          <li key={upload.key} className="card bg-base-200" data-status={upload.status} data-testid="photo-upload">
            <img src={upload.preview} alt={upload.name} className="h-28 w-full rounded-t-box object-cover" />
            {upload.status === "done" && upload.photoId ? (
              <PhotoDescriptionForm
                photoId={upload.photoId}
                words={words}
                photoKind={upload.description?.photoKind}
                bodyArea={upload.description?.bodyArea}
              />
            ) : null}
            <div className="flex flex-col gap-1 p-2 text-xs">
              {upload.status === "review" ? (
                <div role="alert" className="flex flex-col gap-1" data-testid="photo-quality-warning">
                  <p className="font-bold">{words.quality[upload.issue!]}</p>
                  <p>{words.quality.advice}</p>
                  <button
                    type="button"
                    className="btn btn-primary btn-xs"
                    onClick={() => {
                      forget(upload);
                      cameraInput.current?.click();
                    }}
                  >
                    {words.quality.retake}
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-xs"
                    onClick={() => {
                      update(upload.key, { status: "pending" });
                      queue.current = queue.current.then(() => send(upload.key, upload.prepared!, upload.name, upload.description));
                    }}
                  >
                    {words.quality.useAnyway}
                  </button>
                </div>
              ) : (
                <>
                  <span
                    className={`badge badge-sm ${upload.status === "error" ? "badge-error" : upload.status === "done" ? "badge-success" : ""}`}
                  >
                    {upload.status === "waiting" ? words.waiting : t(`request.photos.status.${upload.status}`)}
                  </span>
                  <progress
                    className="progress progress-primary h-1 w-full"
                    value={Math.round(upload.progress * 100)}
                    max={100}
                    aria-label={upload.name}
                  />
                </>
              )}
              {upload.error ? <span className="text-error">{upload.error}</span> : null}
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                disabled={upload.status === "uploading"}
                onClick={async () => {
                  forget(upload);
                  if (upload.photoId && draftId) {
                    setRemovedIds((ids) => [...ids, upload.photoId!]);
                    const form = new FormData();
                    form.append("intent", "remove-photo");
                    form.append("draftId", draftId);
                    form.append("photoId", upload.photoId);
                    await fetch("/patient/new-consultation", { method: "POST", body: form }).catch(() => undefined);
                  }
                }}
              >
                {t("request.photos.remove")}
              </button>
            </div>
          </li>
        ))}
      </ul>

      {hydrated ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          {/* The inputs stay focusable (visually hidden, not display:none): Tab reaches them, Enter or Space opens the picker. */}
          <label className={PICKER_CLASS}>
            {t("request.photos.choose")}
            <input
              type="file"
              accept={ACCEPTED}
              multiple
              className="sr-only"
              data-testid="photo-input"
              onChange={(event) => {
                addFiles(event.target.files);
                event.target.value = "";
              }}
            />
          </label>
          <label className={PICKER_CLASS}>
            {t("request.photos.camera")}
            <input
              ref={cameraInput}
              type="file"
              accept={ACCEPTED}
              capture="environment"
              className="sr-only"
              data-testid="camera-input"
              onChange={(event) => {
                addFiles(event.target.files);
                event.target.value = "";
              }}
            />
          </label>
        </div>
      ) : (
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2" ref={earlyForm}>
          {draftId ? <input type="hidden" name="draftId" value={draftId} /> : null}
          <label className="flex flex-col gap-1">
            <span className="font-medium">{t("request.photos.choose")}</span>
            <input type="file" name="photo" accept={ACCEPTED} multiple className="file-input w-full" />
          </label>
          <div className="grid gap-2 sm:grid-cols-2">
            <PhotoDescriptionFields words={words} />
          </div>
          <p className="text-xs text-base-content/70">{words.forThisUpload}</p>
          <button type="submit" name="intent" value="upload-photos" className="btn btn-outline self-start">
            {t("request.photos.upload")}
          </button>
        </Form>
      )}
      <p className="text-xs text-base-content/70">{t("request.photos.limits")}</p>

      <div className="flex justify-end">
        <Link to={nextHref} className={`btn btn-primary ${busy ? "btn-disabled" : ""}`} aria-disabled={busy} data-testid="wizard-next">
          {t("request.next")}
        </Link>
      </div>
    </section>
  );
}
