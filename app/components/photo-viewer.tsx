import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** Tab from the last button goes round to the first (and Shift+Tab the other way), never out of the dialog. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>("button:not([disabled])")];
  const [first, last] = [buttons[0], buttons.at(-1)];
  if (!first || !last) return;
  const leaving = event.shiftKey ? document.activeElement === first : document.activeElement === last;
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

/**
 * Thumbnails that open a full view in a modal dialog: focus moves into it and stays there, the arrow
 * keys move between photos, and Escape (or Close) returns focus to the thumbnail it was opened from.
 * Without JavaScript a thumbnail is a plain link to the photo. A chat shows each of its photos alone,
 * described by who sent it.
 */
export function PhotoViewer({
  photoIds,
  captions,
  describe,
  listClassName = "grid grid-cols-3 gap-2 sm:grid-cols-4",
}: {
  photoIds: string[];
  /** What each photo shows, in words from the server (e.g. "Close-up · Right forearm"), shown under it. */
  captions?: string[];
  /** The photo's text alternative (by default "Photo N"). */
  describe?: (index: number) => string;
  listClassName?: string;
}) {
  const { t } = useTranslation();
  const label = describe ?? ((index: number) => t("consultation.photoNumber", { number: index + 1 }));
  const [open, setOpen] = useState<number | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open !== null && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);
  if (photoIds.length === 0) return <p className="text-sm text-base-content/80">{t("consultation.noPhotos")}</p>;
  const step = (by: number) => setOpen((index) => (index === null ? null : (index + by + photoIds.length) % photoIds.length));
  return (
    <>
      <ul className={listClassName}>
        {photoIds.map((id, index) => (
          <li key={id}>
            <a
              href={`/files/${id}`}
              onClick={(event) => {
                event.preventDefault();
                opener.current = event.currentTarget;
                setOpen(index);
              }}
              className="block"
              data-testid="photo-thumbnail"
            >
              <img src={`/files/${id}`} alt={label(index)} className="h-24 w-full rounded-box object-cover" loading="lazy" />
            </a>
            {captions?.[index] ? (
              <p className="text-xs" data-testid="photo-caption">
                {captions[index]}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {open !== null ? (
        <dialog
          ref={dialog}
          aria-label={label(open)}
          className="m-auto hidden max-h-full max-w-full flex-col open:flex items-center justify-center gap-3 bg-transparent p-4 backdrop:bg-black/90"
          data-testid="photo-dialog"
          onClose={() => {
            setOpen(null);
            opener.current?.focus();
          }}
          onKeyDown={(event) => {
            if (event.key === "ArrowRight") step(1);
            else if (event.key === "ArrowLeft") step(-1);
            else if (event.key === "Tab") keepFocusInside(event);
          }}
        >
          <img src={`/files/${photoIds[open]}`} alt={label(open)} className="max-h-[80vh] max-w-full object-contain" />
          <div className="flex flex-wrap justify-center gap-2">
            <button type="button" className="btn btn-sm" onClick={() => step(-1)}>
              {t("consultation.previousPhoto")}
            </button>
            <span className="self-center text-sm text-white">
              {open + 1} / {photoIds.length} {captions?.[open]}
            </span>
            <button type="button" className="btn btn-sm" onClick={() => step(1)}>
              {t("consultation.nextPhoto")}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => dialog.current?.close()} autoFocus>
              {t("consultation.closePhoto")}
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
