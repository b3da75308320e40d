import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Thumbnails that open a full view; arrow keys move between photos and Escape closes. */
export function PhotoViewer({ photoIds }: { photoIds: string[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    if (open === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(null);
      else if (event.key === "ArrowRight") setOpen((index) => (index === null ? null : (index + 1) % photoIds.length));
      else if (event.key === "ArrowLeft") setOpen((index) => (index === null ? null : (index - 1 + photoIds.length) % photoIds.length));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, photoIds.length]);
  if (photoIds.length === 0) return <p className="text-sm text-base-content/70">{t("consultation.noPhotos")}</p>;
  return (
    <>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
        {photoIds.map((id, index) => (
          <li key={id}>
            <a
              href={`/files/${id}`}
              onClick={(event) => {
                event.preventDefault();
                setOpen(index);
              }}
              className="block"
              data-testid="photo-thumbnail"
            >
              <img
                src={`/files/${id}`}
                alt={t("consultation.photoNumber", { number: index + 1 })}
                className="h-24 w-full rounded-box object-cover"
                loading="lazy"
              />
            </a>
          </li>
        ))}
      </ul>
      {open !== null ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-label={t("consultation.photoNumber", { number: open + 1 })}
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-black/90 p-4"
          data-testid="photo-dialog"
        >
          <img
            src={`/files/${photoIds[open]}`}
            alt={t("consultation.photoNumber", { number: open + 1 })}
            className="max-h-[80vh] max-w-full object-contain"
          />
          <div className="flex gap-2">
            <button type="button" className="btn btn-sm" onClick={() => setOpen((open - 1 + photoIds.length) % photoIds.length)}>
              {t("consultation.previousPhoto")}
            </button>
            <span className="self-center text-sm text-white">
              {open + 1} / {photoIds.length}
            </span>
            <button type="button" className="btn btn-sm" onClick={() => setOpen((open + 1) % photoIds.length)}>
              {t("consultation.nextPhoto")}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setOpen(null)}>
              {t("shell.dismiss")}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
