// Notification rows: written by the tidings of what happened (tidings.server.ts), read on /notifications
// and counted by the header's bell.
import { and, count, desc, eq } from "drizzle-orm";

import { notifications } from "~/db/schema";
import type { PageRequest } from "~/domain/paging";
import type { Database } from "~/server/db/client.server";

export async function unreadNotificationCount(db: Database, userId: string) {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
  return row?.unread ?? 0;
}

/** A page of the person's notifications, newest first (fetched with `pageRequest`'s limit: one more than a page). */
export function notificationsPage(db: Database, userId: string, paging: PageRequest) {
  return (
    db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        link: notifications.link,
        isRead: notifications.isRead,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      // The id settles ties, so no notification is on two pages or on none.
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(paging.limit)
      .offset(paging.offset)
  );
}

/** Marks one of the reader's own notifications read (someone else's id changes nothing). */
/** Marks one of `userId`'s notifications read, however old; returns where it leads (null: not theirs). */
export async function openNotification(db: Database, userId: string, id: string): Promise<{ link: string | null } | null> {
  const [opened] = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ link: notifications.link });
  return opened ?? null;
}

export async function markAllNotificationsRead(db: Database, userId: string) {
  await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
}
