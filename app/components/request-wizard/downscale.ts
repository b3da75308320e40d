import { MAX_PHOTO_LONG_SIDE_PX } from "~/domain/constants";

/**
 * Redraws a photo in the browser before upload: at most `longSidePx` (2048 px unless told) on its long
 * side, as JPEG. Redrawing also drops EXIF data such as the location. Falls back to the original when the
 * browser cannot decode it (the server then explains what it accepts).
 */
export async function preparePhoto(file: File, longSidePx = MAX_PHOTO_LONG_SIDE_PX): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, longSidePx / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.86));
    return blob ?? file;
  } catch {
    return file;
  }
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
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const form = new FormData();
    if (draftId) form.append("draftId", draftId);
    form.append("photo", photo, fileName);
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
