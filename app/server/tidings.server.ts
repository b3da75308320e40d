// The one way the app tells a person what happened (docs/decisions/0047): a notification, its Telegram
// message for a person who linked a chat, and, where it matters, an email in their own language. The
// tidings are statements of the change's own batch, written only if that change took (the move this
// call made, the refund it settled), so a crash keeps the change and its news together or neither and a
// replay tells nobody twice. They are delivered after the answer, or at once from a job; the job retries.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TFunction } from "i18next";

import { notifications } from "~/db/schema";
import type { NotificationKind } from "~/domain/notifications";
import type { TelegramKind } from "~/domain/telegram";
import { getTranslatorFor } from "~/i18n.server";
import { afterResponse } from "~/server/after-response.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { contactOf } from "~/server/db/profiles.server";
import { randomUuidSql } from "~/server/db/random-uuid-sql.server";
import type { AppConfig } from "~/server/env.server";
import { deliverDueMail, type MailMessage, queuedMail } from "~/server/mail/mailer.server";
import { deliverDueTelegram } from "~/server/telegram/outbox.server";
import { queuedTelegram } from "~/server/telegram/queue.server";

/** What a person finds in their notifications (and on Telegram, for the kinds it carries). */
export interface Notice {
  kind: NotificationKind;
  consultationId: string | null;
  /** Where the notification leads (a path of the site). */
  link: string;
}

/** What one person is told of a change. */
export interface Tidings {
  userId: string;
  /** Null for news the page they watch already shows live: an email alone. */
  notice: Notice | null;
  mail: MailMessage | null;
}

/** What a change queued, to deliver: its emails' outbox ids, and whose Telegram messages. */
export interface Outgoing {
  mailIds: string[];
  userIds: string[];
}

export const NOTHING_OUTGOING: Outgoing = { mailIds: [], userIds: [] };

const notificationRow = (userId: string, { kind, consultationId, link }: Notice, now: Date) => ({
  userId,
  kind,
  consultationId,
  link,
  isRead: false,
  createdAt: now,
});

type MailOf = (t: TFunction<"common">, to: { email: string; firstName: string }) => MailMessage;

/** What `userId` is told: the notice, and the email `mailOf` writes in their language (if any, and if they have an address). */
export async function tidingsFor(db: Database, userId: string, notice: Notice | null, mailOf?: MailOf): Promise<Tidings> {
  const contact = mailOf ? await contactOf(db, userId) : null;
  const mail = contact && mailOf ? mailOf(await getTranslatorFor(contact.language), contact) : null;
  return { userId, notice, mail };
}

/**
 * The tidings as statements of the change's batch, each written only if `onlyIf` holds as the batch
 * runs (the change this call made); and what they queued, for `deliverTidings`.
 */
export function tidingsStatements(
  db: Database,
  tidings: Tidings[],
  now: Date,
  onlyIf: SQL,
): Outgoing & { statements: Array<BatchItem<"sqlite">> } {
  const statements: Array<BatchItem<"sqlite">> = [];
  const mailIds: string[] = [];
  const userIds: string[] = [];
  for (const { userId, notice, mail } of tidings) {
    if (notice) {
      statements.push(insertWhere(db, notifications, notificationRow(userId, notice, now), onlyIf));
      const telegram = queuedTelegram(db, { userId, ...notice }, now, onlyIf);
      if (telegram) {
        statements.push(telegram);
        userIds.push(userId);
      }
    }
    if (mail) {
      const queued = queuedMail(db, mail, now, onlyIf);
      statements.push(queued.statement);
      mailIds.push(queued.id);
    }
  }
  return { statements, mailIds, userIds };
}

/**
 * For a set-based change (one statement, many rows): one notification per row of `table` that `where`
 * selects, to the person in its `userId` column, as a statement of the change's batch. In-app news
 * only, so Telegram's kinds are refused by type: a set has no one's language to write an email in.
 */
export function noticesForEach(
  db: Database,
  rows: { table: SQLiteTable; where: SQL | undefined; userId: SQLiteColumn; consultationId: SQLiteColumn },
  notice: { kind: Exclude<NotificationKind, TelegramKind>; link: string },
  now: Date,
) {
  return db.insert(notifications).select(
    db
      .select({
        id: randomUuidSql().as("id"),
        userId: sql<string>`${rows.userId}`.as("user_id"),
        kind: sql<NotificationKind>`${notice.kind}`.as("kind"),
        consultationId: sql<string>`${rows.consultationId}`.as("consultation_id"),
        link: sql<string>`${notice.link}`.as("link"),
        isRead: sql<number>`0`.as("is_read"),
        createdAt: sql<number>`${now.getTime()}`.as("created_at"),
      })
      .from(rows.table)
      .where(rows.where),
  );
}

/**
 * News with no batch of its own in D1 (a chat message lives in its room's storage), told at once: the
 * notification only if they have none of its kind unread for the consultation (a chat of fifty messages
 * is one "new message"), and its Telegram message by Telegram's own limit, read or not.
 */
export async function tellUnlessUnread(db: Database, userId: string, notice: Notice & { consultationId: string }, now = new Date()) {
  const noneUnread = sql`NOT EXISTS (SELECT 1 FROM ${notifications} WHERE ${and(
    eq(notifications.userId, userId),
    eq(notifications.kind, notice.kind),
    eq(notifications.consultationId, notice.consultationId),
    eq(notifications.isRead, false),
  )})`;
  const telegram = queuedTelegram(db, { userId, ...notice }, now);
  await db.batch([insertWhere(db, notifications, notificationRow(userId, notice, now), noneUnread), ...(telegram ? [telegram] : [])]);
  return { mailIds: [], userIds: telegram ? [userId] : [] } satisfies Outgoing;
}

/** Delivers what a change queued: after the answer when a request made it, at once from a job (the job retries what fails). */
export async function deliverTidings(db: Database, config: AppConfig, outgoing: Outgoing, request?: AppLoadContext) {
  const { mailIds, userIds } = outgoing;
  if (mailIds.length === 0 && userIds.length === 0) return;
  const deliver = async () => {
    if (mailIds.length > 0) await deliverDueMail(db, config, new Date(), { ids: mailIds });
    if (userIds.length > 0) await deliverDueTelegram(db, config, new Date(), { userIds });
  };
  if (request) afterResponse(request, "tidings", deliver);
  else await deliver();
}
