import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import { telegramWebhook } from "~/server/telegram/bot.server";
import { hasTelegramSecret, MAX_TELEGRAM_UPDATE_BYTES } from "~/server/telegram/webhook-secret.server";

const answer = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** Every update Telegram sends is a JSON object with a whole-number update_id. */
function isTelegramUpdate(body: string): boolean {
  try {
    const update: unknown = JSON.parse(body);
    return typeof update === "object" && update !== null && Number.isSafeInteger((update as { update_id?: unknown }).update_id);
  } catch {
    return false;
  }
}

/** Only Telegram's POST means anything here. */
export const loader = () => answer(405, "Method Not Allowed");

// Telegram's webhook (setWebhook with secret_token; the README says how). An update is acted on only
// with the secret in X-Telegram-Bot-Api-Secret-Token; the bot answers /start <token> and /stop.
export async function action({ request, context }: ActionFunctionArgs) {
  const bot = context.config.telegram;
  if (!bot) return answer(404, "Not Found");
  if (request.method !== "POST") return answer(405, "Method Not Allowed");
  if (!hasTelegramSecret(request, bot.webhookSecret)) return answer(401, "Unauthorized");
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_TELEGRAM_UPDATE_BYTES) return answer(413, "Payload Too Large");
  // grammY throws (a 500) on a body that is not JSON: an update is checked for its shape first.
  const body = await request.text();
  if (new TextEncoder().encode(body).byteLength > MAX_TELEGRAM_UPDATE_BYTES) return answer(413, "Payload Too Large");
  if (!isTelegramUpdate(body)) return answer(400, "Not a Telegram update");
  return telegramWebhook(context.db, bot)(new Request(request.url, { method: "POST", headers: request.headers, body }));
}
