// Chapa signs each webhook with `x-chapa-signature`: the hex HMAC-SHA256 of the raw body under the
// webhook secret. (Its other header, `chapa-signature`, is a static hash of the secret alone: anyone who
// saw one webhook could replay it on any body, so it proves nothing and is never accepted.)

async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return [...signature].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const signWebhookBody = hmacHex;

/** Whether `signature` is the body's HMAC under `secret`, compared in constant time. */
export async function isValidWebhookSignature(secret: string, rawBody: string, signature: string | null): Promise<boolean> {
  if (!secret || !signature) return false;
  const expected = new TextEncoder().encode(await hmacHex(secret, rawBody));
  const given = new TextEncoder().encode(signature.trim().toLowerCase());
  if (given.byteLength !== expected.byteLength) return false;
  // Every byte is compared whatever the first difference, so the time taken says nothing of where it is.
  let difference = 0;
  for (let index = 0; index < expected.byteLength; index++) difference |= given[index]! ^ expected[index]!;
  return difference === 0;
}
