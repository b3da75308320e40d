// The words of guided photos, in the reader's language: the patient's guide and choices on step 1, and
// the line a doctor reads under each request photo.
import type { TFunction } from "i18next";

import { BODY_AREAS, PHOTO_KINDS } from "~/domain/intake";
import type { PhotoDescription } from "~/domain/photo-description";
import type { PhotoStepWords } from "~/domain/views/photo-step-words";

/** The example drawings of the guide (public/photo-guide/*.svg), in the order they are shown. */
const GUIDE_EXAMPLES = ["closeUp", "distance", "light", "coin"] as const;
const GUIDE_IMAGES: Record<(typeof GUIDE_EXAMPLES)[number], string> = {
  closeUp: "/photo-guide/close-up.svg",
  distance: "/photo-guide/distance.svg",
  light: "/photo-guide/light.svg",
  coin: "/photo-guide/coin.svg",
};

export function photoStepWords(t: TFunction): PhotoStepWords {
  return {
    guide: {
      title: t("guidedPhotos.guide.title"),
      describe: t("guidedPhotos.guide.describe"),
      examples: GUIDE_EXAMPLES.map((example) => ({
        image: GUIDE_IMAGES[example],
        title: t(`guidedPhotos.guide.${example}.title`),
        text: t(`guidedPhotos.guide.${example}.text`),
        alt: t(`guidedPhotos.guide.${example}.alt`),
      })),
    },
    kindLabel: t("guidedPhotos.kindLabel"),
    areaLabel: t("guidedPhotos.areaLabel"),
    notChosen: t("guidedPhotos.notChosen"),
    save: t("guidedPhotos.save"),
    saved: t("guidedPhotos.saved"),
    saveFailed: t("guidedPhotos.saveFailed"),
    forThisUpload: t("guidedPhotos.forThisUpload"),
    waiting: t("offline.photoWaiting"),
    kinds: PHOTO_KINDS.map((kind) => [kind, t(`guidedPhotos.kinds.${kind}`)]),
    areas: BODY_AREAS.map((area) => [area, t(`intake.areas.${area}`)]),
    quality: {
      dark: t("guidedPhotos.quality.dark"),
      blurry: t("guidedPhotos.quality.blurry"),
      advice: t("guidedPhotos.quality.advice"),
      retake: t("guidedPhotos.quality.retake"),
      useAnyway: t("guidedPhotos.quality.useAnyway"),
    },
  };
}

/** What a request photo shows, for the doctor: "Close-up · Right forearm"; empty when the patient did not say. */
export function photoCaption(t: TFunction, { photoKind, bodyArea }: PhotoDescription): string {
  return [photoKind ? t(`guidedPhotos.kinds.${photoKind}`) : "", bodyArea ? t(`intake.areas.${bodyArea}`) : ""].filter(Boolean).join(" · ");
}
