// Telegram notifications (docs/decisions/0035): which kinds of news reach a linked chat, how long a
// linking token lives, and how often a chat hears about new messages in one consultation.
import type { NotificationKind } from "./notifications";

/** The news worth a Telegram message; the rest stays in the site's notifications. */
const TELEGRAM_KINDS = [
  "consultation_accepted",
  "payment_received",
  "new_message",
  "summary_ready",
  "payment_refunded",
  "money_refunded",
  "payout_paid",
  "new_request",
] as const;
export type TelegramKind = (typeof TELEGRAM_KINDS)[number];

export function isTelegramKind(value: NotificationKind | TelegramKind): value is TelegramKind {
  return (TELEGRAM_KINDS as readonly string[]).includes(value);
}

/** A deep link's token is good for 15 minutes, and once. */
export const TELEGRAM_LINK_TOKEN_LIFETIME_MS = 15 * 60_000;

/** At most one "new message" per consultation in this long. */
export const TELEGRAM_NEW_MESSAGE_INTERVAL_MS = 10 * 60_000;

/** The intents of the Telegram page's forms (part of a profile). */
export const TELEGRAM_PROFILE_INTENTS = { link: "link-telegram", unlink: "unlink-telegram", newRequests: "telegram-new-requests" } as const;

/** Bot API deep-link payloads: 1–64 characters of A–Z, a–z, 0–9, _ and -. */
export const isDeepLinkPayload = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);
