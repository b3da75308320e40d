import { lazy, Suspense, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

// The full view loads with the first photo opened (or when a thumbnail is pointed at or focused).
const loadDialog = () => import("./photo-dialog");
const PhotoDialog = lazy(() => loadDialog().then((module) => ({ default: module.PhotoDialog })));

/**
 * Thumbnails that open a full view in a modal dialog (photo-dialog.tsx); closing it returns focus to
 * the thumbnail it was opened from.
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
  const opener = useRef<HTMLElement | null>(null);
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
              onPointerEnter={() => void loadDialog()}
              onFocus={() => void loadDialog()}
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
        <Suspense fallback={null}>
          <PhotoDialog
            photoIds={photoIds}
            shown={open}
            label={label(open)}
            caption={captions?.[open]}
            onStep={step}
            onClose={() => {
              setOpen(null);
              opener.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
