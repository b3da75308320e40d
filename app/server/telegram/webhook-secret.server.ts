// The check Telegram's webhook gets before anything else: the secret token given to setWebhook comes
// back in X-Telegram-Bot-Api-Secret-Token on every update (compared in constant time).

/** A text update is a few kilobytes; anything near this is not one. */
export const MAX_TELEGRAM_UPDATE_BYTES = 64 * 1024;

export function hasTelegramSecret(request: Request, secret: string): boolean {
  const given = new TextEncoder().encode(request.headers.get("X-Telegram-Bot-Api-Secret-Token") ?? "");
  const expected = new TextEncoder().encode(secret);
  if (given.byteLength !== expected.byteLength) return false;
  let difference = 0;
  for (let index = 0; index < given.byteLength; index += 1) difference |= given[index]! ^ expected[index]!;
  return difference === 0;
}
