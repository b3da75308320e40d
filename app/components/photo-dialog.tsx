import { type KeyboardEvent, useEffect, useRef } from "react";
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
 * One photo in a modal dialog (PhotoViewer's full view, loaded with the first photo opened): focus stays
 * inside, the arrow keys move between photos, Escape or Close ends it.
 */
export function PhotoDialog({
  photoIds,
  shown,
  label,
  caption,
  onStep,
  onClose,
}: {
  photoIds: string[];
  shown: number;
  label: string;
  caption: string | undefined;
  onStep: (by: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-label={label}
      className="m-auto hidden max-h-full max-w-full flex-col open:flex items-center justify-center gap-3 bg-transparent p-4 backdrop:bg-black/90"
      data-testid="photo-dialog"
      onClose={onClose}
      onKeyDown={(event) => {
        if (event.key === "ArrowRight") onStep(1);
        else if (event.key === "ArrowLeft") onStep(-1);
        else if (event.key === "Tab") keepFocusInside(event);
      }}
    >
      <img src={`/files/${photoIds[shown]}`} alt={label} className="max-h-[80vh] max-w-full object-contain" />
      <div className="flex flex-wrap justify-center gap-2">
        <button type="button" className="btn btn-sm" onClick={() => onStep(-1)}>
          {t("consultation.previousPhoto")}
        </button>
        <span className="self-center text-sm text-white">
          {shown + 1} / {photoIds.length} {caption}
        </span>
        <button type="button" className="btn btn-sm" onClick={() => onStep(1)}>
          {t("consultation.nextPhoto")}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => dialog.current?.close()} autoFocus>
          {t("consultation.closePhoto")}
        </button>
      </div>
    </dialog>
  );
}
