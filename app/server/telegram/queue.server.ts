// Queuing Telegram news (docs/decisions/0035), the mail outbox's twin (0023): a message is a row
// written beside its cause's notification, in the same batch (tidings.server.ts), only for a
// person with a linked chat; outbox.server sends it.
import { and, eq, gt, type SQL, sql } from "drizzle-orm";

import { doctors, telegramLinks, telegramOutbox } from "~/db/schema";
import type { NotificationKind } from "~/domain/notifications";
import { isTelegramKind, TELEGRAM_NEW_MESSAGE_INTERVAL_MS, type TelegramKind } from "~/domain/telegram";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";

export interface TelegramNews {
  userId: string;
  kind: NotificationKind | TelegramKind;
  consultationId: string | null;
  /** A path on the site. */
  link: string;
}

/**
 * The outbox row for `news` as a statement for the cause's batch, or null for news Telegram does not
 * carry. It is written only if the person has a linked chat (a doctor's new requests only if they asked
 * for them), a "new message" only if none for that consultation went in the last ten minutes, and only
 * if `onlyIf` holds (the move this call made).
 */
export function queuedTelegram(db: Database, news: TelegramNews, now: Date, onlyIf?: SQL) {
  const { userId, kind, consultationId, link } = news;
  if (!isTelegramKind(kind)) return null;
  const linked = sql`EXISTS (SELECT 1 FROM ${telegramLinks} WHERE ${telegramLinks.userId} = ${userId}${
    kind === "new_request" ? sql` AND ${telegramLinks.wantsNewRequests} = 1` : sql``
  })`;
  const recentlyTold =
    kind === "new_message" && consultationId
      ? sql`NOT EXISTS (SELECT 1 FROM ${telegramOutbox} WHERE ${and(
          eq(telegramOutbox.userId, userId),
          eq(telegramOutbox.consultationId, consultationId),
          eq(telegramOutbox.kind, kind),
          gt(telegramOutbox.createdAt, new Date(now.getTime() - TELEGRAM_NEW_MESSAGE_INTERVAL_MS)),
        )})`
      : undefined;
  const row = { id: crypto.randomUUID(), userId, kind, consultationId, link, createdAt: now, nextAttemptAt: now };
  return insertWhere(db, telegramOutbox, row, and(linked, recentlyTold, onlyIf));
}

/**
 * A new request in the queue, for every active doctor who linked Telegram and asked for new requests
 * (a follow-up held for its own doctor: that doctor alone). Returns who was told, for delivery.
 */
export async function queueNewRequestForDoctors(db: Database, consultationId: string, onlyDoctorId: string | null, now = new Date()) {
  const askers = await db
    .select({ userId: telegramLinks.userId })
    .from(telegramLinks)
    .innerJoin(doctors, eq(doctors.userId, telegramLinks.userId))
    .where(
      and(
        eq(telegramLinks.wantsNewRequests, true),
        eq(doctors.status, "active"),
        onlyDoctorId ? eq(doctors.userId, onlyDoctorId) : undefined,
      ),
    );
  const statements = askers.flatMap(({ userId }) => {
    const statement = queuedTelegram(
      db,
      { userId, kind: "new_request", consultationId, link: `/consultation/${consultationId}/accept` },
      now,
    );
    return statement ? [statement] : [];
  });
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  return askers.map(({ userId }) => userId);
}
