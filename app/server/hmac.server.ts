// HMAC-SHA256 under a secret, in one place: signing with `crypto.subtle.sign`, checking with
// `crypto.subtle.verify`, whose comparison takes the same time wherever a forged signature differs.
const encoder = new TextEncoder();

function hmacKey(secret: string) {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** The HMAC-SHA256 of `message` under `secret`. */
export async function hmacSign(secret: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)));
}

/** Whether `signature` is the HMAC-SHA256 of `message` under `secret`, checked in constant time. */
export async function hmacVerify(secret: string, message: string, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  return crypto.subtle.verify("HMAC", await hmacKey(secret), signature, encoder.encode(message));
}

/** Bytes as lowercase hex, two digits each. */
export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Hex (either case) as bytes; null when it is not an even run of hex digits. */
export function fromHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})*$/i.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}
