// The append-only audit log: sign-ins, password changes, and every doctor's or admin's look at a
// patient's data. Admins read it; nothing updates or deletes it.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

import { auditLog } from "~/db/schema";
import { clientAddress } from "~/server/client-address.server";
import type { Database } from "~/server/db/client.server";

export type AuditAction =
  | "auth.sign_in.success"
  | "auth.sign_in.failure"
  | "auth.sign_out"
  | "auth.sign_up"
  | "auth.email_confirmed"
  | "auth.password_changed"
  | "auth.password_reset_requested"
  | "auth.sign_in_link_requested"
  | "auth.password_reset"
  | "auth.invite_accepted"
  | "auth.consent_given"
  | "consultation.submitted"
  | "consultation.accepted"
  | "consultation.declined"
  | "consultation.withdrawn"
  | "consultation.viewed"
  | "consultation.paid"
  | "consultation.completed"
  | "files.deleted"
  | "account.closed"
  | "privacy.data_exported"
  | "record.purged"
  | "payment.late"
  | "payment.flagged"
  | "file.viewed"
  | "registration.submitted"
  | "contact.submitted"
  | "admin.account_created"
  | "admin.doctor_updated"
  | "admin.doctor_activated"
  | "admin.doctor_deactivated"
  | "admin.registration_approved"
  | "admin.registration_rejected"
  | "registration.approval_released"
  | "admin.mail_retried"
  | "admin.licence_viewed"
  | "admin.payment_refunded"
  | "admin.consultation_opened"
  | "escrow.released"
  | "refund.settled"
  | "refund.failed"
  | "refund.retried"
  | "consultation.cancelled_after_payment"
  | "dispute.opened"
  | "dispute.answered"
  | "dispute.resolved"
  | "payout.sent"
  | "payout.settled"
  | "payout.failed"
  | "payout.settled_outside"
  | "refund.settled_outside"
  | "escrow.charged_back"
  | "escrow.sent_to_review"
  | "escrow.review_ended"
  | "reconciliation.resolved"
  | "payout_account.changed"
  | "doctor.picture_changed"
  | "doctor.picture_removed"
  | "doctor.languages_changed";

export interface AuditEvent {
  action: AuditAction;
  actorId: string | null;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

export function auditStatement(db: Database, request: Request, event: AuditEvent) {
  return db.insert(auditLog).values({
    actorId: event.actorId,
    action: event.action,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    ipAddress: clientAddress(request),
    details: event.details ?? null,
  });
}

export async function recordAudit(db: Database, request: Request, event: AuditEvent) {
  await auditStatement(db, request, event);
}

/**
 * An audit entry for a change made earlier in the same batch, written only if `table` has a row where
 * `changedByThisCall` holds: so of several callers racing, only the one whose change took records it.
 */
export function auditIfChanged(
  db: Database,
  table: SQLiteTable,
  changedByThisCall: SQL | undefined,
  entry: Omit<AuditEvent, "targetId" | "details"> & {
    targetId: SQLiteColumn;
    details?: SQL<string>;
    ipAddress: string | null;
    now: Date;
  },
) {
  return db.insert(auditLog).select(
    db
      .select({
        id: sql<number>`NULL`.as("id"),
        actorId: sql<string | null>`${entry.actorId}`.as("actor_id"),
        action: sql<string>`${entry.action}`.as("action"),
        targetType: sql<string | null>`${entry.targetType ?? null}`.as("target_type"),
        targetId: entry.targetId,
        ipAddress: sql<string | null>`${entry.ipAddress}`.as("ip_address"),
        details: (entry.details ?? sql<null>`NULL`).as("details"),
        createdAt: sql<Date>`${entry.now.getTime()}`.as("created_at"),
      })
      .from(table)
      .where(changedByThisCall),
  );
}
