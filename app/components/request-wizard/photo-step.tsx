import { Form, Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { useHydrated } from "~/components/use-hydrated";
import { MAX_PHOTOS_PER_REQUEST } from "~/domain/constants";

import { preparePhoto, uploadPhoto } from "./downscale";

type UploadStatus = "pending" | "uploading" | "done" | "error";
interface Upload {
  key: string;
  name: string;
  preview: string;
  status: UploadStatus;
  progress: number;
  error?: string;
  photoId?: string;
}

const ACCEPTED = "image/jpeg,image/png,image/webp";
const PICKER_CLASS = "btn btn-outline focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-primary";

/** Step 1: optional photos. Without JavaScript, a multipart form; with it, each photo is resized and uploaded at once, with its progress. */
export function PhotoStep({
  draftId: initialDraftId,
  storedPhotoIds,
  refusals,
  startedAgain,
  onPhotoCount,
  followUpOf,
}: {
  draftId: string | null;
  storedPhotoIds: string[];
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
  const navigate = useNavigate();
  const [draftId, setDraftId] = useState(initialDraftId);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef(Promise.resolve());
  const draftRef = useRef(initialDraftId);
  // Photos removed before their turn in the queue must never be sent.
  const cancelled = useRef(new Set<string>());
  const [removedIds, setRemovedIds] = useState<string[]>([]);

  const carried = followUpOf ? `&followUp=${followUpOf}` : "";
  const update = (key: string, change: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  const uploadedHere = new Set(uploads.map((upload) => upload.photoId).filter(Boolean));
  const fromServer = storedPhotoIds.filter((id) => !uploadedHere.has(id) && !removedIds.includes(id));
  const activeCount = fromServer.length + uploads.filter((upload) => upload.status !== "error").length;
  const busy = uploads.some((upload) => upload.status === "pending" || upload.status === "uploading");
  const uploadedCount = fromServer.length + uploads.filter((upload) => upload.status === "done").length;
  useEffect(() => onPhotoCount(uploadedCount), [uploadedCount, onPhotoCount]);

  function addFiles(files: FileList | null) {
    const room = MAX_PHOTOS_PER_REQUEST - activeCount;
    const chosen = [...(files ?? [])];
    const added: Upload[] = chosen.map((file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      name: file.name,
      preview: URL.createObjectURL(file),
      status: index < room ? "pending" : "error",
      progress: 0,
      error: index < room ? undefined : t("request.errors.tooManyPhotos"),
    }));
    setUploads((all) => [...all, ...added]);
    // One at a time: the first upload creates the draft the others join, and a slow line is not split.
    added.forEach((upload, index) => {
      if (upload.status !== "pending") return;
      const file = chosen[index]!;
      queue.current = queue.current.then(async () => {
        if (cancelled.current.has(upload.key)) return;
        update(upload.key, { status: "uploading" });
        const prepared = await preparePhoto(file);
        const answer = await uploadPhoto(prepared, file.name, draftRef.current, (progress) => update(upload.key, { progress }));
        if (answer.draftId && !draftRef.current) {
          draftRef.current = answer.draftId;
          setDraftId(answer.draftId);
          navigate(`?step=1&draft=${answer.draftId}${carried}`, { replace: true, preventScrollReset: true });
        }
        const photoId = answer.photoIds?.[0];
        if (photoId) update(upload.key, { status: "done", progress: 1, photoId });
        else update(upload.key, { status: "error", error: answer.errors?.[0] || answer.error || t("request.errors.uploadFailed") });
      });
    });
  }

  const nextHref = draftId ? `?step=2&draft=${draftId}${carried}` : `?step=2${carried}`;
  return (
    <section className="flex flex-col gap-4" aria-labelledby="photos-heading">
      <h2 id="photos-heading" className="text-xl font-bold" data-focus-on-arrival>
        {t("request.photos.title")}
      </h2>
      <p className="text-sm text-base-content/80">{t("request.photos.intro")}</p>
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
        {fromServer.map((photoId) => (
          <li key={photoId} className="card bg-base-200">
            <img src={`/files/${photoId}`} alt={t("request.photos.yourPhoto")} className="h-28 w-full rounded-t-box object-cover" />
            <Form method="post" className="p-2" preventScrollReset>
              <input type="hidden" name="draftId" value={draftId ?? ""} />
              <input type="hidden" name="photoId" value={photoId} />
              <button type="submit" name="intent" value="remove-photo" className="btn btn-ghost btn-xs w-full">
                {t("request.photos.remove")}
              </button>
            </Form>
          </li>
        ))}
        {uploads.map((upload) => (
          <li key={upload.key} className="card bg-base-200" data-status={upload.status} data-testid="photo-upload">
            <img src={upload.preview} alt={upload.name} className="h-28 w-full rounded-t-box object-cover" />
            <div className="flex flex-col gap-1 p-2 text-xs">
              <span
                className={`badge badge-sm ${upload.status === "error" ? "badge-error" : upload.status === "done" ? "badge-success" : ""}`}
              >
                {t(`request.photos.status.${upload.status}`)}
              </span>
              <progress
                className="progress progress-primary h-1 w-full"
                value={Math.round(upload.progress * 100)}
                max={100}
                aria-label={upload.name}
              />
              {upload.error ? <span className="text-error">{upload.error}</span> : null}
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                disabled={upload.status === "uploading"}
                onClick={async () => {
                  cancelled.current.add(upload.key);
                  if (upload.photoId && draftId) {
                    setRemovedIds((ids) => [...ids, upload.photoId!]);
                    const form = new FormData();
                    form.append("intent", "remove-photo");
                    form.append("draftId", draftId);
                    form.append("photoId", upload.photoId);
                    await fetch("/patient/new-consultation", { method: "POST", body: form }).catch(() => undefined);
                  }
                  setUploads((all) => all.filter((item) => item.key !== upload.key));
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
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2">
          {draftId ? <input type="hidden" name="draftId" value={draftId} /> : null}
          <label className="flex flex-col gap-1">
            <span className="font-medium">{t("request.photos.choose")}</span>
            <input type="file" name="photo" accept={ACCEPTED} multiple className="file-input w-full" />
          </label>
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
