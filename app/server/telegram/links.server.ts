// Linking a Telegram chat to a person (docs/decisions/0035): the profile makes a one-time token for the
// bot's deep link (15 minutes, used once, stored as its SHA-256); /start with it links the chat that
// pressed Start. Unlinking (the profile, /stop, or a chat that blocked the bot) drops what was waiting.
import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";

import { telegramLinks, telegramLinkTokens, telegramOutbox } from "~/db/schema";
import { TELEGRAM_LINK_TOKEN_LIFETIME_MS } from "~/domain/telegram";
import { randomToken, sha256Hex } from "~/server/auth/tokens.server";
import type { Database } from "~/server/db/client.server";

/** A new deep-link token for `userId` (its link to the bot is `https://t.me/<bot>?start=<token>`). */
export async function createTelegramLinkToken(db: Database, userId: string, now: Date) {
  const token = randomToken();
  await db.insert(telegramLinkTokens).values({
    id: await sha256Hex(token),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + TELEGRAM_LINK_TOKEN_LIFETIME_MS),
  });
  return token;
}

/**
 * Uses the token up and links `chatId` to its owner (a chat linked to someone else before moves to
 * them). Returns the owner, or null when the token is unknown, expired or already used.
 */
export async function redeemTelegramLinkToken(db: Database, token: string, chatId: string, now: Date) {
  const [used] = await db
    .update(telegramLinkTokens)
    .set({ usedAt: now })
    .where(and(eq(telegramLinkTokens.id, await sha256Hex(token)), isNull(telegramLinkTokens.usedAt), gt(telegramLinkTokens.expiresAt, now)))
    .returning({ userId: telegramLinkTokens.userId });
  if (!used) return null;
  await db.batch([
    db.delete(telegramLinks).where(or(eq(telegramLinks.chatId, chatId), eq(telegramLinks.userId, used.userId))),
    db.insert(telegramLinks).values({ userId: used.userId, chatId, linkedAt: now }),
  ]);
  return used.userId;
}

export async function telegramLinkOf(db: Database, userId: string) {
  const [link] = await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId));
  return link ?? null;
}

export async function telegramLinkOfChat(db: Database, chatId: string) {
  const [link] = await db.select().from(telegramLinks).where(eq(telegramLinks.chatId, chatId));
  return link ?? null;
}

/** The person's chat unlinked, and nothing more sent to it. Returns whether there was a link. */
export async function unlinkTelegram(db: Database, userId: string) {
  const [, removed] = await db.batch([
    db
      .update(telegramOutbox)
      .set({ status: "dropped" })
      .where(and(eq(telegramOutbox.userId, userId), inArray(telegramOutbox.status, ["queued", "sending"]))),
    db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).returning({ userId: telegramLinks.userId }),
  ]);
  return removed.length > 0;
}

/** A doctor's choice to hear of every new request. */
export async function setWantsNewRequests(db: Database, userId: string, wants: boolean) {
  await db.update(telegramLinks).set({ wantsNewRequests: wants }).where(eq(telegramLinks.userId, userId));
}
