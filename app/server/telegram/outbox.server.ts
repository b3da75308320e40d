// Sending the Telegram outbox (docs/decisions/0035; rows are queued by queue.server): worded in the
// reader's language when sent. Senders claim a row before sending, retry with backoff, give up after
// MAX_MAIL_ATTEMPTS, and unlink a chat whose person blocked the bot instead of retrying it.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { GrammyError } from "grammy/web";

import { consultations, telegramLinks, telegramOutbox } from "~/db/schema";
import { mailRetryDelayMs, MAX_MAIL_ATTEMPTS } from "~/domain/mail-retries";
import type { TelegramKind } from "~/domain/telegram";
import { getTranslatorFor } from "~/i18n.server";
import { afterResponse } from "~/server/after-response.server";
import type { Database } from "~/server/db/client.server";
import { contactOf } from "~/server/db/profiles.server";
import type { AppConfig, TelegramBotConfig } from "~/server/env.server";
import { telegramBot } from "~/server/telegram/bot.server";
import { unlinkTelegram } from "~/server/telegram/links.server";

/** How long a sender's claim holds (as mail's). */
const SEND_LEASE_MS = 5 * 60_000;
const MAX_MESSAGES_PER_RUN = 50;

export interface TelegramDeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
  /** Chats unlinked because their person blocked the bot. */
  unlinked: number;
}

type OutboxRow = typeof telegramOutbox.$inferSelect;

/** Sends what is due (or only `userIds`' messages), each claimed first so two senders never send one twice. */
export async function deliverDueTelegram(
  db: Database,
  config: AppConfig,
  now: Date,
  { userIds }: { userIds?: string[] } = {},
): Promise<TelegramDeliveryReport> {
  const report: TelegramDeliveryReport = { sent: 0, retrying: 0, failed: 0, unlinked: 0 };
  const bot = config.telegram;
  if (!bot) return report;
  const due = await db
    .select({ id: telegramOutbox.id, status: telegramOutbox.status, nextAttemptAt: telegramOutbox.nextAttemptAt })
    .from(telegramOutbox)
    .where(
      and(
        inArray(telegramOutbox.status, ["queued", "sending"]),
        lte(telegramOutbox.nextAttemptAt, now),
        userIds ? inArray(telegramOutbox.userId, userIds) : undefined,
      ),
    )
    .orderBy(telegramOutbox.nextAttemptAt)
    .limit(MAX_MESSAGES_PER_RUN);
  for (const candidate of due) {
    const [claimed] = await db
      .update(telegramOutbox)
      .set({ status: "sending", attempts: sql`${telegramOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS) })
      .where(
        and(
          eq(telegramOutbox.id, candidate.id),
          eq(telegramOutbox.status, candidate.status),
          eq(telegramOutbox.nextAttemptAt, candidate.nextAttemptAt),
        ),
      )
      .returning();
    if (!claimed) continue;
    const outcome = await send(db, config, bot, claimed);
    if (outcome === "sent") {
      await db.update(telegramOutbox).set({ status: "sent", sentAt: new Date(), lastError: null }).where(eq(telegramOutbox.id, claimed.id));
      report.sent += 1;
    } else if (outcome === "unlinked") {
      await db.update(telegramOutbox).set({ status: "dropped" }).where(eq(telegramOutbox.id, claimed.id));
      report.unlinked += 1;
    } else {
      const givenUp = claimed.attempts >= MAX_MAIL_ATTEMPTS;
      await db
        .update(telegramOutbox)
        .set({
          status: givenUp ? "failed" : "queued",
          nextAttemptAt: new Date(now.getTime() + mailRetryDelayMs(claimed.attempts)),
          lastError: outcome.error.slice(0, 500),
        })
        .where(eq(telegramOutbox.id, claimed.id));
      console.error(JSON.stringify({ event: "telegram_failed", outboxId: claimed.id, attempts: claimed.attempts, error: outcome.error }));
      if (givenUp) report.failed += 1;
      else report.retrying += 1;
    }
  }
  return report;
}

/** Sends what a request queued (only `userIds`' messages, if given) after its answer; the job retries what fails. */
export function deliverTelegramAfterResponse(context: AppLoadContext, userIds?: string[]) {
  afterResponse(context, "telegram", () => deliverDueTelegram(context.db, context.config, new Date(), userIds ? { userIds } : {}));
}

async function send(
  db: Database,
  config: AppConfig,
  bot: TelegramBotConfig,
  message: OutboxRow,
): Promise<"sent" | "unlinked" | { error: string }> {
  const [link] = await db.select({ chatId: telegramLinks.chatId }).from(telegramLinks).where(eq(telegramLinks.userId, message.userId));
  if (!link) return "unlinked";
  const text = await telegramText(db, config.siteOrigin, message);
  try {
    await telegramBot(db, bot).api.sendMessage(Number(link.chatId), text);
    return "sent";
  } catch (error) {
    // 403: the person blocked the bot (or deleted their account); no retry will ever get through.
    if (error instanceof GrammyError && error.error_code === 403) {
      await unlinkTelegram(db, message.userId);
      return "unlinked";
    }
    return { error: String(error) };
  }
}

/** The message in its reader's language: what happened, about which consultation, and the link. */
async function telegramText(db: Database, origin: string, message: OutboxRow) {
  const [contact, consultation] = await Promise.all([
    contactOf(db, message.userId),
    message.consultationId
      ? db.select({ title: consultations.title }).from(consultations).where(eq(consultations.id, message.consultationId))
      : Promise.resolve([]),
  ]);
  const t = await getTranslatorFor(contact?.language ?? "en");
  const title = consultation[0]?.title ?? "";
  return [t(`telegram.kinds.${message.kind as TelegramKind}`, { title }), `${origin}${message.link}`].join("\n\n");
}

/** Messages an admin should see: given up on, or still not sent an hour after they were queued. */
export async function undeliveredTelegram(db: Database, now: Date, limit: number) {
  return db
    .select({
      id: telegramOutbox.id,
      userId: telegramOutbox.userId,
      kind: telegramOutbox.kind,
      status: telegramOutbox.status,
      attempts: telegramOutbox.attempts,
      lastError: telegramOutbox.lastError,
      createdAt: telegramOutbox.createdAt,
    })
    .from(telegramOutbox)
    .where(
      or(
        eq(telegramOutbox.status, "failed"),
        and(inArray(telegramOutbox.status, ["queued", "sending"]), lte(telegramOutbox.createdAt, new Date(now.getTime() - 60 * 60_000))),
      ),
    )
    .orderBy(desc(telegramOutbox.createdAt))
    .limit(limit);
}
