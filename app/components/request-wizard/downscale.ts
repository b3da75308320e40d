import { MAX_PHOTO_LONG_SIDE_PX } from "~/domain/constants";
import { photoQuality, type PhotoQualityIssue, QUALITY_SAMPLE_LONG_SIDE_PX } from "~/domain/photo-quality";

/** `source` drawn on a new canvas at most `longSide` px on its long side. */
function drawnAtMost(source: CanvasImageSource & { width: number; height: number }, longSide: number) {
  const scale = Math.min(1, longSide / Math.max(source.width, source.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(source.width * scale));
  canvas.height = Math.max(1, Math.round(source.height * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return { canvas, context };
}

/**
 * Redraws a photo in the browser before upload: at most `longSidePx` (2048 px unless told) on its long
 * side, as JPEG. Redrawing also drops EXIF data such as the location. A small copy is measured for
 * darkness and blur. Falls back to the original, unjudged, when the browser cannot decode it (the server
 * then explains what it accepts).
 */
export async function preparePhoto(
  file: File,
  longSidePx = MAX_PHOTO_LONG_SIDE_PX,
): Promise<{ photo: Blob; issue: PhotoQualityIssue | null }> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const { canvas } = drawnAtMost(bitmap, longSidePx);
    bitmap.close();
    const sample = drawnAtMost(canvas, QUALITY_SAMPLE_LONG_SIDE_PX);
    const { data, width, height } = sample.context.getImageData(0, 0, sample.canvas.width, sample.canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.86));
    return { photo: blob ?? file, issue: photoQuality(data, width, height).issue };
  } catch {
    return { photo: file, issue: null };
  }
}

/** What a photo shows, as chosen beside it (empty: not chosen). */
export interface PhotoDescription {
  photoKind: string;
  bodyArea: string;
}

export interface UploadAnswer {
  draftId?: string;
  photoIds?: string[];
  errors?: string[];
  error?: string;
}

/** Posts one photo with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function uploadPhoto(
  photo: Blob,
  fileName: string,
  draftId: string | null,
  onProgress: (fraction: number) => void,
  description?: PhotoDescription,
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const form = new FormData();
    if (draftId) form.append("draftId", draftId);
    form.append("photo", photo, fileName);
    if (description) {
      form.append("photoKind", description.photoKind);
      form.append("bodyArea", description.bodyArea);
    }
    const request = new XMLHttpRequest();
    request.open("POST", "/patient/new-consultation/photos");
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      try {
        resolve(JSON.parse(request.responseText) as UploadAnswer);
      } catch {
        resolve({ error: "" });
      }
    };
    request.onerror = () => resolve({ error: "" });
    request.send(form);
  });
}
