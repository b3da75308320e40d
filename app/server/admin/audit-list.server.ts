// The audit log as admins read it: filtered by who acted, whose records were touched and what was
// done, paged in SQL, newest first.
import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";

import { auditLog, consultationFiles, consultations, profiles, userRoles, users } from "~/db/schema";
import { DISPUTE_REASONS, DISPUTE_RESOLUTIONS } from "~/domain/disputes";
import { isUuid } from "~/domain/ids";
import { labelled } from "~/domain/label-colon";
import { birrText } from "~/domain/money";
import type { PageRequest } from "~/domain/paging";
import type { TextKey } from "~/i18n";
import type { AuditAction } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { shownEmail, shownName } from "~/server/db/profiles.server";
import { contains } from "~/server/db/search.server";

/** Every action the app writes, with its label; the compiler insists that a new action gets one here. */
export const AUDIT_ACTION_LABELS = {
  "auth.sign_in.success": "admin.audit.actions.auth_sign_in_success",
  "auth.sign_in.failure": "admin.audit.actions.auth_sign_in_failure",
  "auth.sign_out": "admin.audit.actions.auth_sign_out",
  "auth.sign_up": "admin.audit.actions.auth_sign_up",
  "auth.email_confirmed": "admin.audit.actions.auth_email_confirmed",
  "auth.password_changed": "admin.audit.actions.auth_password_changed",
  "auth.password_reset_requested": "admin.audit.actions.auth_password_reset_requested",
  "auth.sign_in_link_requested": "admin.audit.actions.auth_sign_in_link_requested",
  "auth.password_reset": "admin.audit.actions.auth_password_reset",
  "auth.invite_accepted": "admin.audit.actions.auth_invite_accepted",
  "auth.consent_given": "admin.audit.actions.auth_consent_given",
  "consultation.submitted": "admin.audit.actions.consultation_submitted",
  "consultation.accepted": "admin.audit.actions.consultation_accepted",
  "consultation.declined": "admin.audit.actions.consultation_declined",
  "consultation.withdrawn": "admin.audit.actions.consultation_withdrawn",
  "consultation.viewed": "admin.audit.actions.consultation_viewed",
  "consultation.paid": "admin.audit.actions.consultation_paid",
  "consultation.completed": "admin.audit.actions.consultation_completed",
  "files.deleted": "admin.audit.actions.files_deleted",
  "payment.late": "admin.audit.actions.payment_late",
  "payment.flagged": "admin.audit.actions.payment_flagged",
  "file.viewed": "admin.audit.actions.file_viewed",
  "registration.submitted": "admin.audit.actions.registration_submitted",
  "contact.submitted": "admin.audit.actions.contact_submitted",
  "admin.account_created": "admin.audit.actions.admin_account_created",
  "admin.doctor_updated": "admin.audit.actions.admin_doctor_updated",
  "admin.doctor_activated": "admin.audit.actions.admin_doctor_activated",
  "admin.doctor_deactivated": "admin.audit.actions.admin_doctor_deactivated",
  "admin.registration_approved": "admin.audit.actions.admin_registration_approved",
  "admin.registration_rejected": "admin.audit.actions.admin_registration_rejected",
  "registration.approval_released": "admin.audit.actions.registration_approval_released",
  "admin.mail_retried": "admin.audit.actions.admin_mail_retried",
  "admin.licence_viewed": "admin.audit.actions.admin_licence_viewed",
  "admin.payment_refunded": "admin.audit.actions.admin_payment_refunded",
  "admin.consultation_opened": "admin.audit.actions.admin_consultation_opened",
  "escrow.released": "admin.audit.actions.escrow_released",
  "refund.settled": "admin.audit.actions.refund_settled",
  "refund.failed": "admin.audit.actions.refund_failed",
  "refund.retried": "admin.audit.actions.refund_retried",
  "consultation.cancelled_after_payment": "admin.audit.actions.consultation_cancelled_after_payment",
  "dispute.opened": "admin.audit.actions.dispute_opened",
  "dispute.answered": "admin.audit.actions.dispute_answered",
  "dispute.resolved": "admin.audit.actions.dispute_resolved",
  "payout.sent": "admin.audit.actions.payout_sent",
  "payout.settled": "admin.audit.actions.payout_settled",
  "payout.failed": "admin.audit.actions.payout_failed",
  "payout.settled_outside": "admin.audit.actions.payout_settled_outside",
  "refund.settled_outside": "admin.audit.actions.refund_settled_outside",
  "escrow.charged_back": "admin.audit.actions.escrow_charged_back",
  "escrow.sent_to_review": "admin.audit.actions.escrow_sent_to_review",
  "escrow.review_ended": "admin.audit.actions.escrow_review_ended",
  "reconciliation.resolved": "admin.audit.actions.reconciliation_resolved",
  "payout_account.changed": "admin.audit.actions.payout_account_changed",
  "doctor.picture_changed": "admin.audit.actions.doctor_picture_changed",
  "doctor.picture_removed": "admin.audit.actions.doctor_picture_removed",
  "doctor.languages_changed": "admin.audit.actions.doctor_languages_changed",
  "account.closed": "admin.audit.actions.account_closed",
  "privacy.data_exported": "admin.audit.actions.privacy_data_exported",
  "record.purged": "admin.audit.actions.record_purged",
} as const satisfies Record<AuditAction, TextKey>;

export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(AUDIT_ACTION_LABELS, value);
}

export interface AuditFilter {
  /** An actor's email or name (part of it), or their id. */
  actor: string;
  /** A patient's email or name (part of it), or their id: entries about them, their consultations or their files. */
  patient: string;
  action: AuditAction | null;
}

/** The users whose id is `text`, or whose email or name contains it; with `role`, only those in it. */
function usersMatching(db: Database, text: string, role?: "patient") {
  const matches = isUuid(text)
    ? eq(users.id, text)
    : or(
        contains(users.email, text),
        contains(profiles.firstName, text),
        contains(profiles.lastName, text),
        contains(sql`${profiles.firstName} || ' ' || ${profiles.lastName}`, text),
      )!;
  const query = db.select({ id: users.id }).from(users).leftJoin(profiles, eq(profiles.userId, users.id));
  if (!role) return query.where(matches);
  return query.innerJoin(userRoles, eq(userRoles.userId, users.id)).where(and(matches, eq(userRoles.role, role)));
}

/** Entries about the matching patients: their account, their consultations, their consultations' files. */
function aboutPatients(db: Database, text: string): SQL {
  const patients = usersMatching(db, text, "patient");
  const theirConsultations = db.select({ id: consultations.id }).from(consultations).where(inArray(consultations.patientId, patients));
  const theirFiles = db
    .select({ id: consultationFiles.id })
    .from(consultationFiles)
    .where(inArray(consultationFiles.consultationId, theirConsultations));
  return or(
    and(eq(auditLog.targetType, "user"), inArray(auditLog.targetId, patients)),
    and(eq(auditLog.targetType, "consultation"), inArray(auditLog.targetId, theirConsultations)),
    and(eq(auditLog.targetType, "file"), inArray(auditLog.targetId, theirFiles)),
  )!;
}

/** What an entry's details say, labelled in the reader's language; keys the app does not write show as they are. */
const DETAIL_LABELS: Record<string, TextKey> = {
  reason: "admin.audit.detailLabels.reason",
  withReason: "admin.audit.detailLabels.withReason",
  role: "admin.audit.detailLabels.role",
  method: "admin.audit.detailLabels.method",
  fields: "admin.audit.detailLabels.fields",
  userId: "admin.audit.detailLabels.userId",
  files: "admin.audit.detailLabels.files",
  txRef: "admin.audit.detailLabels.txRef",
  amountSantim: "admin.audit.detailLabels.amount",
  // Entries written before amounts were kept in santim (migration 0009).
  amountEtb: "admin.audit.detailLabels.amount",
  consultationId: "admin.audit.detailLabels.consultationId",
  by: "admin.audit.detailLabels.by",
  reference: "admin.audit.detailLabels.reference",
  resolution: "admin.audit.detailLabels.resolution",
  refundSantim: "admin.audit.detailLabels.refund",
};

type Translate = (key: TextKey, values?: Record<string, unknown>) => string;

export async function auditEntries(db: Database, filter: AuditFilter, page: PageRequest, t: Translate) {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actor) conditions.push(inArray(auditLog.actorId, usersMatching(db, filter.actor)));
  if (filter.patient) conditions.push(aboutPatients(db, filter.patient));
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      ipAddress: auditLog.ipAddress,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      actorFirstName: profiles.firstName,
      actorLastName: profiles.lastName,
      actorClosedAt: users.closedAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .leftJoin(profiles, eq(profiles.userId, auditLog.actorId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    label: isAuditAction(row.action) ? AUDIT_ACTION_LABELS[row.action] : null,
    target: row.targetType ? { type: row.targetType, id: row.targetId ?? "" } : null,
    ipAddress: row.ipAddress,
    details: readableDetails(row.details, row.action, t),
    createdAt: row.createdAt.toISOString(),
    // A closed account (its own closing is audited with it as the actor) is named so, without its placeholder address.
    actor: row.actorId
      ? {
          id: row.actorId,
          email: shownEmail({ email: row.actorEmail, closedAt: row.actorClosedAt }),
          name: shownName(t, { firstName: row.actorFirstName, lastName: row.actorLastName, closedAt: row.actorClosedAt }),
        }
      : null,
  }));
}

const MAX_DETAIL_CHARS = 160;

const isOneOf = <T extends string>(codes: readonly T[], value: string): value is T => (codes as readonly string[]).includes(value);

/** The codes the app itself writes into details, in the reader's words: who released an escrow, a dispute's reason and decision. */
function codeText(key: string, value: string, action: string, t: Translate): string | null {
  if (key === "by" && (value === "patient" || value === "schedule")) return t(`admin.audit.releasedBy.${value}`);
  if (key === "resolution" && isOneOf(DISPUTE_RESOLUTIONS, value)) return t(`admin.disputes.resolutions.${value}`);
  // Other entries' reasons are words someone typed; a dispute's is one of its codes.
  if (key === "reason" && action === "dispute.opened" && isOneOf(DISPUTE_REASONS, value)) return t(`disputes.reasons.${value}`);
  return null;
}

/** The details as one short, readable line ("Reason: billing query · Files: 2"), whatever shape they were stored in. */
function readableDetails(details: unknown, action: string, t: Translate): string {
  if (details === null || details === undefined) return "";
  const valueText = (key: string, value: unknown): string => {
    const worded = typeof value === "string" ? codeText(key, value, action, t) : null;
    if (worded) return worded;
    if (typeof value === "boolean") return t(value ? "admin.audit.yes" : "admin.audit.no");
    if ((key === "amountSantim" || key === "refundSantim") && typeof value === "number")
      return t("admin.overview.etb", { amount: birrText(value) });
    if (key === "amountEtb" && typeof value === "number") return t("admin.overview.etb", { amount: String(value) });
    if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", ");
    return typeof value === "string" ? value : JSON.stringify(value);
  };
  const entries =
    typeof details === "object" && !Array.isArray(details)
      ? Object.entries(details as Record<string, unknown>).map(([key, value]) =>
          labelled(DETAIL_LABELS[key] ? t(DETAIL_LABELS[key]) : key, valueText(key, value)),
        )
      : [JSON.stringify(details)];
  const line = entries.join(" · ").replace(/\s+/g, " ");
  return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS - 1)}…` : line;
}
