// Messages sent through the public contact form (/feedback), and admins reading them.
import { and, desc, eq, isNull, or, type SQL } from "drizzle-orm";

import { contactMessages } from "~/db/schema";
import type { ContactMessage } from "~/domain/contact-message";
import type { PageRequest } from "~/domain/paging";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

/** A message sent through the contact form, as `id`: the statement for its sender's batch. */
export function contactMessageInsert(db: Database, id: string, message: ContactMessage, now: Date) {
  return db.insert(contactMessages).values({ id, ...message, createdAt: now });
}

export async function listContactMessages(db: Database, options: { search: string; unreadOnly: boolean; page: PageRequest }) {
  const conditions: SQL[] = [];
  if (options.unreadOnly) conditions.push(isNull(contactMessages.readAt));
  if (options.search) {
    const text = options.search;
    conditions.push(
      or(
        contains(contactMessages.name, text),
        contains(contactMessages.email, text),
        contains(contactMessages.subject, text),
        contains(contactMessages.message, text),
      )!,
    );
  }
  return db
    .select()
    .from(contactMessages)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(options.page.limit)
    .offset(options.page.offset);
}

/** Marks a message read by `adminId`; false when there is no such message or it was read already. */
export async function markContactMessageRead(
  db: Database,
  id: string,
  adminId: string,
  now: Date,
): Promise<"marked" | "already_read" | "not_found"> {
  const changed = await db
    .update(contactMessages)
    .set({ readAt: now, readBy: adminId })
    .where(and(eq(contactMessages.id, id), isNull(contactMessages.readAt)))
    .returning({ id: contactMessages.id });
  if (changed.length === 1) return "marked";
  const found = await db.query.contactMessages.findFirst({ where: eq(contactMessages.id, id), columns: { id: true } });
  return found ? "already_read" : "not_found";
}
