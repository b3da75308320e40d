// Whether a photo is too dark or too blurry to help a doctor. The browser measures a small grayscale copy
// of the downscaled photo before upload and warns; the patient may always send it anyway.

/** The long side of the copy that is measured, in pixels (the photo is drawn that small first). */
export const QUALITY_SAMPLE_LONG_SIDE_PX = 512;
/** A photo smaller than this on either side is not judged: there is too little to measure. */
const MIN_SIDE_TO_JUDGE_PX = 16;
/** Below this mean brightness (0 black … 255 white) a photo is too dark. */
const MIN_MEAN_BRIGHTNESS = 45;
/**
 * Below this variance of the Laplacian (in squared brightness steps, on the measured copy) a photo is too
 * blurry. Low on purpose: smooth skin in focus has little texture, and a false warning only costs a tap.
 */
const MIN_LAPLACIAN_VARIANCE = 20;

export type PhotoQualityIssue = "dark" | "blurry";

/** Each pixel's brightness (Rec. 601 luma, 0–255) of an RGBA image; alpha is ignored. */
function grayscale(rgba: Uint8ClampedArray, width: number, height: number): Float32Array {
  const gray = new Float32Array(width * height);
  for (let pixel = 0; pixel < gray.length; pixel++) {
    const at = pixel * 4;
    gray[pixel] = 0.299 * rgba[at]! + 0.587 * rgba[at + 1]! + 0.114 * rgba[at + 2]!;
  }
  return gray;
}

function meanBrightness(gray: Float32Array): number {
  let sum = 0;
  for (const value of gray) sum += value;
  return gray.length ? sum / gray.length : 0;
}

/**
 * The variance of the 4-neighbour Laplacian over the inner pixels: sharp edges give large values, a
 * blurred or flat picture values near zero.
 */
function laplacianVariance(gray: Float32Array, width: number, height: number): number {
  let sum = 0;
  let sumOfSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x;
      const laplacian = gray[at - width]! + gray[at + width]! + gray[at - 1]! + gray[at + 1]! - 4 * gray[at]!;
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

/**
 * A photo's mean brightness and sharpness (the variance of its Laplacian), and what is wrong with it if
 * anything: darkness first (a dark photo's sharpness cannot be judged). A picture too small to measure
 * is not judged.
 */
export function photoQuality(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
): { brightness: number; sharpness: number; issue: PhotoQualityIssue | null } {
  const gray = grayscale(rgba, width, height);
  const brightness = meanBrightness(gray);
  const sharpness = laplacianVariance(gray, width, height);
  const judged = width >= MIN_SIDE_TO_JUDGE_PX && height >= MIN_SIDE_TO_JUDGE_PX;
  const issue = !judged ? null : brightness < MIN_MEAN_BRIGHTNESS ? "dark" : sharpness < MIN_LAPLACIAN_VARIANCE ? "blurry" : null;
  return { brightness, sharpness, issue };
}
