// Chapa signs each webhook with `x-chapa-signature`: the hex HMAC-SHA256 of the raw body under the
// webhook secret. (Its other header, `chapa-signature`, is a static hash of the secret alone: anyone who
// saw one webhook could replay it on any body, so it proves nothing and is never accepted.)
import { fromHex, hmacSign, hmacVerify, toHex } from "~/server/hmac.server";

/** The hex signature Chapa would send for `body` (the sandbox and tests sign their webhooks with it). */
export async function signWebhookBody(secret: string, body: string): Promise<string> {
  return toHex(await hmacSign(secret, body));
}

/** Whether `signature` is the body's HMAC under `secret`, compared in constant time. */
export async function isValidWebhookSignature(secret: string, rawBody: string, signature: string | null): Promise<boolean> {
  if (!secret || !signature) return false;
  const given = fromHex(signature.trim());
  return given !== null && (await hmacVerify(secret, rawBody, given));
}
