import { describe, expect, it } from "vitest";

import { readPhotoDescription } from "~/domain/photo-description";
import { photoQuality } from "~/domain/photo-quality";

/** An RGBA image of `width` × `height` whose pixel (x, y) has the gray level `level(x, y)`. */
function image(width: number, height: number, level: (x: number, y: number) => number) {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      rgba.fill(level(x, y), at, at + 3);
      rgba[at + 3] = 255;
    }
  return rgba;
}

const measured = (width: number, height: number, level: (x: number, y: number) => number) =>
  photoQuality(image(width, height, level), width, height);

const checkerboard = (square: number) => (x: number, y: number) => ((Math.floor(x / square) + Math.floor(y / square)) % 2 ? 230 : 30);

describe("a photo's quality", () => {
  it("reads brightness as luma: red, green and blue weighed as the eye sees them", () => {
    const red = Uint8ClampedArray.from(Array.from({ length: 16 * 16 }, () => [255, 0, 0, 255]).flat());
    expect(photoQuality(red, 16, 16).brightness).toBeCloseTo(76.2, 1);
    const green = Uint8ClampedArray.from(Array.from({ length: 16 * 16 }, () => [0, 255, 0, 255]).flat());
    expect(photoQuality(green, 16, 16).brightness).toBeCloseTo(149.7, 1);
    // Pure blue is as dark to the eye as it is to the check.
    const blue = Uint8ClampedArray.from(Array.from({ length: 16 * 16 }, () => [0, 0, 255, 255]).flat());
    expect(photoQuality(blue, 16, 16)).toMatchObject({ issue: "dark" });
  });

  it("finds a dark photo too dark, whatever its sharpness", () => {
    expect(measured(64, 48, () => 0)).toEqual({ brightness: 0, sharpness: 0, issue: "dark" });
    // A sharp pattern, but dim: still dark.
    const dimPattern = measured(64, 48, (x, y) => ((x + y) % 2 ? 60 : 10));
    expect(dimPattern.sharpness).toBeGreaterThan(10_000);
    expect(dimPattern.issue).toBe("dark");
  });

  it("finds a flat or smoothly shaded photo blurry", () => {
    expect(measured(64, 48, () => 128)).toEqual({ brightness: 128, sharpness: 0, issue: "blurry" });
    // A soft gradient, as a picture out of focus: bright enough, with no edges.
    const gradient = measured(64, 48, (x) => 80 + x);
    expect(gradient.brightness).toBeGreaterThan(100);
    expect(gradient.issue).toBe("blurry");
  });

  it("passes a sharp checkerboard, and finds the same pattern with soft edges blurry", () => {
    const sharp = measured(64, 48, checkerboard(4));
    expect(sharp.brightness).toBeCloseTo(130, 0);
    expect(sharp.sharpness).toBeGreaterThan(10_000);
    expect(sharp.issue).toBeNull();
    // Squares 32 px wide whose light and dark shade into each other: no edge left to see.
    const soft = measured(64, 48, (x, y) => 130 + 100 * Math.sin((x * Math.PI) / 32) * Math.sin((y * Math.PI) / 32));
    expect(soft.sharpness).toBeLessThan(5);
    expect(soft.issue).toBe("blurry");
  });

  it("does not judge a picture too small to measure (under 16 px on a side)", () => {
    expect(measured(1, 1, () => 0).issue).toBeNull();
    expect(measured(15, 40, () => 0).issue).toBeNull();
    expect(measured(16, 40, () => 0).issue).toBe("dark");
  });
});

describe("what a photo shows", () => {
  it("is a kind and a body area from their lists, or not said", () => {
    expect(readPhotoDescription("close_up", "left_forearm")).toEqual({
      ok: true,
      description: { photoKind: "close_up", bodyArea: "left_forearm" },
    });
    expect(readPhotoDescription("", null)).toEqual({ ok: true, description: { photoKind: null, bodyArea: null } });
    expect(readPhotoDescription("selfie", "face")).toEqual({ ok: false, refusal: "unknownPhotoKind" });
    expect(readPhotoDescription("distance", "elbow")).toEqual({ ok: false, refusal: "unknownBodyArea" });
    expect(readPhotoDescription(new File([], "x"), "")).toEqual({ ok: false, refusal: "unknownPhotoKind" });
  });
});
