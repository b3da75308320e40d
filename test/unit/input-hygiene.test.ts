import { describe, expect, it } from "vitest";

import { MAX_PHOTO_PIXELS } from "~/domain/constants";
import { photoRefusal } from "~/domain/consultation-request";
import { isUuid } from "~/domain/ids";
import { declaredPixelSize } from "~/domain/image-dimensions";
import { cleanLine, cleanText } from "~/domain/text-hygiene";

import { JPEG_BYTES, jpegDeclaring, PNG_BYTES, pngDeclaring, WEBP_BYTES } from "../workers/photos";

/** A lossy WebP (VP8) header declaring `width` × `height`. */
function vp8(width: number, height: number) {
  const bytes = new Uint8Array(30);
  bytes.set(new TextEncoder().encode("RIFF"), 0);
  bytes.set(new TextEncoder().encode("WEBPVP8 "), 8);
  bytes.set([0x9d, 0x01, 0x2a], 23);
  new DataView(bytes.buffer).setUint16(26, width, true);
  new DataView(bytes.buffer).setUint16(28, height, true);
  return bytes;
}

/** A lossless WebP (VP8L) header declaring `width` × `height`. */
function vp8l(width: number, height: number) {
  const bytes = new Uint8Array(25);
  bytes.set(new TextEncoder().encode("RIFF"), 0);
  bytes.set(new TextEncoder().encode("WEBPVP8L"), 8);
  bytes[20] = 0x2f;
  new DataView(bytes.buffer).setUint32(21, ((width - 1) | ((height - 1) << 14)) >>> 0, true);
  return bytes;
}

describe("the pixel size a photo declares", () => {
  it.each([
    ["a real PNG", PNG_BYTES, "image/png", { width: 1, height: 1 }],
    ["a real JPEG with an ICC profile before its frame", JPEG_BYTES, "image/jpeg", { width: 3, height: 2 }],
    ["a real extended WebP", WEBP_BYTES, "image/webp", { width: 3, height: 2 }],
    ["a lossy WebP", vp8(4000, 3000), "image/webp", { width: 4000, height: 3000 }],
    ["a lossless WebP", vp8l(16383, 2), "image/webp", { width: 16383, height: 2 }],
    ["a PNG declaring 65535 × 65535", pngDeclaring(65535, 65535), "image/png", { width: 65535, height: 65535 }],
    ["a JPEG declaring 10000 × 6000", jpegDeclaring(10000, 6000), "image/jpeg", { width: 10000, height: 6000 }],
  ] as const)("is read from %s", (_name, bytes, type, expected) => {
    expect(declaredPixelSize(bytes, type)).toEqual(expected);
  });

  it("is unknown for a JPEG cut off before its frame, or a zero-sized PNG", () => {
    expect(declaredPixelSize(JPEG_BYTES.slice(0, 100), "image/jpeg")).toBeNull();
    expect(declaredPixelSize(pngDeclaring(0, 10), "image/png")).toBeNull();
  });

  it("refuses photos over 50 megapixels, and accepts them just under", () => {
    expect(MAX_PHOTO_PIXELS).toBe(50_000_000);
    expect(photoRefusal(100, pngDeclaring(65535, 65535), 0)).toBe("photoTooManyPixels");
    expect(photoRefusal(100, pngDeclaring(10_000, 5_001), 0)).toBe("photoTooManyPixels");
    expect(photoRefusal(100, pngDeclaring(10_000, 5_000), 0)).toBeNull();
    expect(photoRefusal(100, JPEG_BYTES.slice(0, 100), 0)).toBe("photoWrongType");
  });
});

describe("text people type", () => {
  it("loses control characters and bidi overrides; one-line values lose their line breaks", () => {
    expect(cleanLine("Li\u202eya\u0000 \u001b[31mBekele\u2066\r\nX\u0085")).toBe("Liya [31mBekele X");
    expect(cleanText("Itchy\r\nrash\u0007\u202d\u2069\tbad\rnight")).toBe("Itchy\nrash bad\nnight");
  });

  it("loses direction marks, zero-width spaces and Unicode line separators too", () => {
    expect(cleanLine("Ha\u200ena\u200f\u061c\u200b\ufeff Line\u2028two\u2029")).toBe("Hana Line two ");
    expect(cleanText("one\u2028two\u2029three")).toBe("one\ntwo\nthree");
  });

  it("keeps Amharic and ordinary punctuation as typed", () => {
    expect(cleanLine("ሐና በቀለ")).toBe("ሐና በቀለ");
    expect(cleanText("ማሳከክ፣ መቅላት።\nከሁለት ሳምንት ጀምሮ!")).toBe("ማሳከክ፣ መቅላት።\nከሁለት ሳምንት ጀምሮ!");
  });
});

describe("ids from outside", () => {
  it("are UUIDs or nothing", () => {
    expect(isUuid(crypto.randomUUID())).toBe(true);
    expect(isUuid("abc\r\nLocation: x")).toBe(false);
    expect(isUuid(`${crypto.randomUUID()}\n`)).toBe(false);
    expect(isUuid("a".repeat(60_000))).toBe(false);
    expect(isUuid(null)).toBe(false);
  });
});
