// The public contact form (/feedback): a message is stored for admins (/admin/messages) and audited in
// the same batch.
import type { ContactMessage } from "~/domain/contact-message";
import { auditStatement } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { contactMessageInsert } from "~/server/db/contact-messages.server";

export async function saveContactMessage(db: Database, request: Request, message: ContactMessage, now: Date) {
  const id = crypto.randomUUID();
  await db.batch([
    contactMessageInsert(db, id, message, now),
    auditStatement(db, request, { action: "contact.submitted", actorId: null, targetType: "contact_message", targetId: id }),
  ]);
  return id;
}
