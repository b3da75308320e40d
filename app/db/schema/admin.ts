// What admins review and read: doctors' applications, contact messages, and the append-only audit log.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { MAX_LICENCE_BYTES, MIN_EXPERIENCE_YEARS } from "../../domain/constants.ts";
import { LANGUAGES } from "../../domain/languages.ts";
import { users } from "./accounts.ts";
import { createdAt, id, oneOf } from "./columns.ts";

export const REGISTRATION_STATUSES = ["pending", "approved", "rejected"] as const;

export const doctorRegistrations = sqliteTable(
  "doctor_registrations",
  {
    id: id(),
    fullName: text("full_name").notNull(),
    phone: text("phone").notNull(),
    /** Stored lower-cased, like account addresses. */
    email: text("email").notNull(),
    cityCountry: text("city_country").notNull(),
    experienceYears: integer("experience_years").notNull(),
    licenceFileKey: text("licence_file_key").notNull(),
    licenceFileName: text("licence_file_name").notNull(),
    licenceContentType: text("licence_content_type").notNull(),
    licenceSizeBytes: integer("licence_size_bytes").notNull(),
    /** The language they applied in: the language of the answer they get. */
    language: text("language", { enum: LANGUAGES }).notNull().default("en"),
    status: text("status", { enum: REGISTRATION_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    reviewedBy: text("reviewed_by").references(() => users.id),
    reviewedAt: integer("reviewed_at", { mode: "timestamp_ms" }),
    rejectionReason: text("rejection_reason"),
  },
  (t) => [
    index("doctor_registrations_status_idx").on(t.status, t.createdAt),
    index("doctor_registrations_created_idx").on(t.createdAt),
    index("doctor_registrations_email_idx").on(t.email),
    // One application at a time per address: a second waits until the first is decided.
    uniqueIndex("doctor_registrations_pending_email_unique")
      .on(t.email)
      .where(sql`status = 'pending'`),
    check("doctor_registrations_status_valid", oneOf("status", REGISTRATION_STATUSES)),
    check("doctor_registrations_language_valid", oneOf("language", LANGUAGES)),
    check("doctor_registrations_experience_range", sql`${t.experienceYears} >= ${sql.raw(String(MIN_EXPERIENCE_YEARS))}`),
    check("doctor_registrations_licence_size", sql`${t.licenceSizeBytes} BETWEEN 1 AND ${sql.raw(String(MAX_LICENCE_BYTES))}`),
    check("doctor_registrations_licence_type", sql.raw(`licence_content_type IN ('application/pdf', 'image/jpeg', 'image/png')`)),
    // A decision names who made it and when.
    check(
      "doctor_registrations_review_complete",
      sql`${t.status} = 'pending' OR (${t.reviewedBy} IS NOT NULL AND ${t.reviewedAt} IS NOT NULL)`,
    ),
  ],
);

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: id(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
    readBy: text("read_by").references(() => users.id),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt), index("contact_messages_read_idx").on(t.readAt)],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Who acted; null for the system or an anonymous visitor. Kept if the user is deleted. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** What happened, e.g. `auth.sign_in.success`, `consultation.viewed`. */
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ipAddress: text("ip_address"),
    /** JSON object with the details that matter for this action. */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_actor_idx").on(t.actorId, t.createdAt),
    index("audit_log_target_idx").on(t.targetType, t.targetId),
    index("audit_log_action_idx").on(t.action, t.createdAt),
  ],
);

export type AuditEntry = typeof auditLog.$inferInsert;
