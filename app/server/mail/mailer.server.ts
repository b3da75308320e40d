// The one mail interface. Every message is written to the mail_outbox table first (a record of what
// was sent, and the dev outbox page); in production it is then delivered through the provider's HTTP
// API (Resend's wire format); outside production the outbox is the delivery.
import { desc, eq } from "drizzle-orm";

import { mailOutbox } from "~/db/schema";
import type { Database } from "~/server/db/client.server";
import type { AppConfig } from "~/server/env.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function sendMail(db: Database, config: AppConfig, message: MailMessage): Promise<void> {
  const [queued] = await db
    .insert(mailOutbox)
    .values({ toEmail: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html ?? null })
    .returning({ id: mailOutbox.id });
  const id = queued!.id;
  if (config.standInsEnabled) {
    await db.update(mailOutbox).set({ status: "sent", sentAt: new Date(), providerMessageId: "dev-outbox" }).where(eq(mailOutbox.id, id));
    return;
  }
  const response = await fetch(config.MAIL_API_URL, {
    method: "POST",
    headers: { Authorization: `Bearer ${config.MAIL_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from: config.MAIL_FROM, to: [message.to], subject: message.subject, text: message.text, html: message.html }),
  });
  if (!response.ok) {
    await db.update(mailOutbox).set({ status: "failed" }).where(eq(mailOutbox.id, id));
    console.error(JSON.stringify({ event: "mail_failed", outboxId: id, status: response.status, body: await response.text() }));
    return;
  }
  const { id: providerMessageId } = (await response.json()) as { id?: string };
  await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: new Date(), providerMessageId: providerMessageId ?? null })
    .where(eq(mailOutbox.id, id));
}

/** The newest messages in the outbox (the stand-in's inbox page). */
export async function latestOutboxMessages(db: Database, limit: number) {
  return db
    .select({
      id: mailOutbox.id,
      toEmail: mailOutbox.toEmail,
      subject: mailOutbox.subject,
      textBody: mailOutbox.textBody,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}
