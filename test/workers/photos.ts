// Small real images (and impostors) for upload tests.

/** A valid 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"),
  (char) => char.charCodeAt(0),
);
/** The start of a JPEG, enough for its magic bytes. */
export const JPEG_BYTES = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0xff, 0xd9]);
/** A Windows executable's header. */
export const EXE_BYTES = Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]);
export const SVG_BYTES = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

export function photoFile(bytes: Uint8Array, name: string, type = "image/png") {
  return new File([bytes as BlobPart], name, { type });
}

/** A JPEG-looking file of `sizeBytes`. */
export function largeJpeg(sizeBytes: number, name = "big.jpg") {
  const bytes = new Uint8Array(sizeBytes);
  bytes.set(JPEG_BYTES.slice(0, 4));
  return new File([bytes as BlobPart], name, { type: "image/jpeg" });
}
