// The one mail interface, an outbox (docs/decisions/0023). A message is first a queued row, written in
// the same D1 batch as the change that causes it (`queuedMail`), so a crash keeps both or neither.
// Senders then deliver what is due (`deliverDueMail`): right after the answer for what a request
// queued, and the scheduled job for anything left, with retries and backoff. In production delivery
// goes through the provider's HTTP API (Resend's wire format); outside production the outbox is the
// delivery (the dev outbox page).
import { and, desc, eq, inArray, lte, or, type SQL, sql } from "drizzle-orm";

import { mailOutbox } from "~/db/schema";
import { mailRetryDelayMs, MAX_MAIL_ATTEMPTS } from "~/domain/mail-retries";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import type { AppConfig } from "~/server/env.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** How long a sender's claim holds: a sender that died mid-send leaves the message due again after it. */
const SEND_LEASE_MS = 5 * 60_000;
/** At most this many messages per sender run (the job runs every 15 minutes). */
const MAX_MESSAGES_PER_RUN = 50;

/**
 * The outbox row for `message`, as a statement for the caller's batch. With `onlyIf`, the row is
 * written only if the condition holds as the batch runs (e.g. the move this call made), so a refused
 * or lost move queues no mail. The id is returned so the caller can deliver it after the answer.
 */
export function queuedMail(db: Database, message: MailMessage, now: Date, onlyIf?: SQL) {
  const id = crypto.randomUUID();
  const row = {
    id,
    toEmail: message.to,
    subject: message.subject,
    textBody: message.text,
    htmlBody: message.html ?? null,
    createdAt: now,
    nextAttemptAt: now,
  };
  const statement = onlyIf ? insertWhere(db, mailOutbox, row, onlyIf) : db.insert(mailOutbox).values(row);
  return { id, statement };
}

/** Queues `message` on its own (its cause is already written) and delivers it at once. */
export async function sendMail(db: Database, config: AppConfig, message: MailMessage): Promise<void> {
  const now = new Date();
  const { id, statement } = queuedMail(db, message, now);
  await statement;
  await deliverDueMail(db, config, now, { ids: [id] });
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Delivers the messages that are due (or just `ids`, those a request queued). Each is claimed first with
 * a conditional UPDATE, so two senders at once never send one message twice; a failure waits longer
 * each time, and after MAX_MAIL_ATTEMPTS the message is marked failed for an admin to see.
 */
export async function deliverDueMail(
  db: Database,
  config: AppConfig,
  now: Date,
  { ids }: { ids?: string[] } = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  const due = await db
    .select({ id: mailOutbox.id, status: mailOutbox.status, nextAttemptAt: mailOutbox.nextAttemptAt })
    .from(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.status, ["queued", "sending"]),
        lte(mailOutbox.nextAttemptAt, now),
        ids ? inArray(mailOutbox.id, ids) : undefined,
      ),
    )
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(MAX_MESSAGES_PER_RUN);
  for (const candidate of due) {
    const [claimed] = await db
      .update(mailOutbox)
      .set({ status: "sending", attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS) })
      .where(
        and(
          eq(mailOutbox.id, candidate.id),
          eq(mailOutbox.status, candidate.status),
          eq(mailOutbox.nextAttemptAt, candidate.nextAttemptAt),
        ),
      )
      .returning();
    if (!claimed) continue;
    const outcome = await deliver(config, claimed);
    if (outcome.ok) {
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: new Date(), providerMessageId: outcome.providerMessageId, lastError: null })
        .where(eq(mailOutbox.id, claimed.id));
      report.sent += 1;
    } else {
      const givenUp = claimed.attempts >= MAX_MAIL_ATTEMPTS;
      await db
        .update(mailOutbox)
        .set({
          status: givenUp ? "failed" : "queued",
          nextAttemptAt: new Date(now.getTime() + mailRetryDelayMs(claimed.attempts)),
          lastError: outcome.error.slice(0, 500),
        })
        .where(eq(mailOutbox.id, claimed.id));
      console.error(JSON.stringify({ event: "mail_failed", outboxId: claimed.id, attempts: claimed.attempts, error: outcome.error }));
      if (givenUp) report.failed += 1;
      else report.retrying += 1;
    }
  }
  return report;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

async function deliver(
  config: AppConfig,
  message: OutboxRow,
): Promise<{ ok: true; providerMessageId: string } | { ok: false; error: string }> {
  if (config.standInsEnabled) return { ok: true, providerMessageId: "dev-outbox" };
  try {
    const response = await fetch(config.MAIL_API_URL, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${config.MAIL_API_KEY}`,
        "Content-Type": "application/json",
        // The provider sends a message once per key, even if a sender retries after a lost answer.
        "Idempotency-Key": message.id,
      },
      body: JSON.stringify({
        from: config.MAIL_FROM,
        to: [message.toEmail],
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody ?? undefined,
      }),
    });
    if (!response.ok) return { ok: false, error: `HTTP ${response.status}: ${await response.text()}` };
    const { id } = (await response.json()) as { id?: string };
    return { ok: true, providerMessageId: id ?? "" };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

/** Messages an admin should see: given up on, or still not delivered an hour after they were queued. */
export async function undeliveredMail(db: Database, now: Date, limit: number) {
  return db
    .select({
      id: mailOutbox.id,
      toEmail: mailOutbox.toEmail,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      nextAttemptAt: mailOutbox.nextAttemptAt,
    })
    .from(mailOutbox)
    .where(
      or(
        eq(mailOutbox.status, "failed"),
        and(inArray(mailOutbox.status, ["queued", "sending"]), lte(mailOutbox.createdAt, new Date(now.getTime() - 60 * 60_000))),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}

/** An admin's "try again": a failed message is due now, with its attempts counted afresh. */
export async function retryMail(db: Database, id: string, now: Date): Promise<"retried" | "not_failed" | "not_found"> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: "queued", attempts: 0, nextAttemptAt: now })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "failed")))
    .returning({ id: mailOutbox.id });
  if (row) return "retried";
  return (await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id), columns: { id: true } })) ? "not_failed" : "not_found";
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
