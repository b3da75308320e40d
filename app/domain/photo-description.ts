// What a request photo shows (guided photos): its kind and the body area, each chosen from a list.
import { type BodyArea, isBodyArea, PHOTO_KINDS, type PhotoKind } from "./intake";

/** The form intent that sets what a photo shows (the step's own action without JavaScript, the photos route with it). */
export const DESCRIBE_PHOTO_INTENT = "describe-photo";

export interface PhotoDescription {
  photoKind: PhotoKind | null;
  bodyArea: BodyArea | null;
}

export type PhotoDescriptionRefusal = "unknownPhotoKind" | "unknownBodyArea";

function isPhotoKind(value: unknown): value is PhotoKind {
  return typeof value === "string" && (PHOTO_KINDS as readonly string[]).includes(value);
}

/**
 * A photo's kind and body area as a form sent them: missing or empty means not said (null); anything
 * else must be on the list.
 */
export function readPhotoDescription(
  kind: unknown,
  area: unknown,
): { ok: true; description: PhotoDescription } | { ok: false; refusal: PhotoDescriptionRefusal } {
  const given = (value: unknown) => value !== null && value !== undefined && value !== "";
  if (given(kind) && !isPhotoKind(kind)) return { ok: false, refusal: "unknownPhotoKind" };
  if (given(area) && !isBodyArea(area)) return { ok: false, refusal: "unknownBodyArea" };
  return {
    ok: true,
    description: { photoKind: isPhotoKind(kind) ? kind : null, bodyArea: isBodyArea(area) ? area : null },
  };
}
