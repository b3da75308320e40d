// Consultations and what hangs off them: photos and chat images, the chat row, the patient's feedback,
// and the notifications they cause.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { MAX_PHOTO_BYTES, MAX_TITLE_CHARS, RATING_MAX, RATING_MIN } from "../../domain/constants.ts";
import {
  CONSULTATION_STATUSES,
  DECLINE_REASONS,
  DEFAULT_PRIORITY,
  MAX_DECLINE_NOTE_CHARS,
  PRIORITIES,
  WITH_DOCTOR_STATUSES,
} from "../../domain/consultation-status.ts";
import { CONTACT_METHODS } from "../../domain/feedback.ts";
import {
  BODY_AREAS,
  DURATION_UNITS,
  MAX_AGE_YEARS,
  MAX_DURATION_AMOUNT,
  MAX_INTAKE_NOTE_CHARS,
  PHOTO_KINDS,
  PREGNANCY_STATES,
  SEXES,
} from "../../domain/intake.ts";
import { users } from "./accounts.ts";
import { createdAt, id, isBoolean, oneOf, quotedList, updatedAt } from "./columns.ts";

export const FILE_KINDS = ["photo", "chat_image"] as const;
export const CHAT_STATUSES = ["active", "closed"] as const;

export const consultations = sqliteTable(
  "consultations",
  {
    id: id(),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id),
    doctorId: text("doctor_id").references(() => users.id),
    status: text("status", { enum: CONSULTATION_STATUSES }).notNull(),
    priority: text("priority", { enum: PRIORITIES }).notNull().default(DEFAULT_PRIORITY),
    /** The chief complaint cut to its first characters. */
    title: text("title").notNull().default(""),
    // The description's three sections, kept apart so each can be shown and searched as itself.
    mainConcern: text("main_concern").notNull().default(""),
    medicalHistory: text("medical_history").notNull().default(""),
    additionalComments: text("additional_comments").notNull().default(""),
    /** The doctor code the patient gave, if any: that doctor sees the request marked for them. */
    requestedDoctorCode: text("requested_doctor_code"),
    /** The request form's one-time key: the same form sent twice (a double click, a retry) makes one request. */
    submissionKey: text("submission_key"),
    // The structured intake (app/domain/intake.ts); null on consultations from before it.
    patientAgeYears: integer("patient_age_years"),
    patientSex: text("patient_sex", { enum: SEXES }),
    /** Known body areas, comma-separated in canonical order (`listOf` reads them). */
    bodyAreas: text("body_areas").notNull().default(""),
    durationAmount: integer("duration_amount"),
    durationUnit: text("duration_unit", { enum: DURATION_UNITS }),
    /** Known symptoms, comma-separated in canonical order. */
    symptoms: text("symptoms").notNull().default(""),
    treatmentsTried: text("treatments_tried").notNull().default(""),
    allergies: text("allergies").notNull().default(""),
    pregnancy: text("pregnancy", { enum: PREGNANCY_STATES }),
    /** A follow-up names the completed consultation it continues (same patient, same doctor first). */
    followUpOfId: text("follow_up_of_id"),
    /** A follow-up waits for this doctor alone until `reservedUntil`, then for everyone. */
    reservedForDoctorId: text("reserved_for_doctor_id").references(() => users.id),
    reservedUntil: integer("reserved_until", { mode: "timestamp_ms" }),
    /** The doctor's "send me new photos in N days": when the patient is reminded, and when that was done. */
    newPhotosDueAt: integer("new_photos_due_at", { mode: "timestamp_ms" }),
    newPhotosRemindedAt: integer("new_photos_reminded_at", { mode: "timestamp_ms" }),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    paymentDeadlineAt: integer("payment_deadline_at", { mode: "timestamp_ms" }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
    /** Why a doctor declined the request (the patient is told), and their words when the reason is `other`. */
    declineReason: text("decline_reason", { enum: DECLINE_REASONS }),
    declineNote: text("decline_note"),
    /**
     * Set by every status move (app/server/consultations/move.server.ts) to an id of its own, so the rows
     * a move writes with it (chat row, audit entry) are written only by the call that made the move.
     */
    lastMoveId: text("last_move_id"),
    /** When the record is purged (its patient closed their account; docs/decisions/0037), and when it was. */
    purgeAfter: integer("purge_after", { mode: "timestamp_ms" }),
    purgedAt: integer("purged_at", { mode: "timestamp_ms" }),
    observations: text("observations"),
    diagnosis: text("diagnosis"),
    treatmentPlan: text("treatment_plan"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("consultations_patient_created_idx").on(t.patientId, t.createdAt),
    index("consultations_patient_status_idx").on(t.patientId, t.status),
    index("consultations_doctor_status_idx").on(t.doctorId, t.status),
    index("consultations_doctor_created_idx").on(t.doctorId, t.createdAt),
    index("consultations_doctor_completed_idx").on(t.doctorId, t.completedAt),
    // The doctors' queue: pending, by priority, then oldest first.
    index("consultations_queue_idx").on(t.status, t.priority, t.createdAt),
    index("consultations_created_idx").on(t.createdAt),
    index("consultations_payment_deadline_idx").on(t.paymentDeadlineAt),
    index("consultations_follow_up_of_idx").on(t.followUpOfId),
    index("consultations_new_photos_due_idx").on(t.newPhotosDueAt),
    index("consultations_purge_after_idx").on(t.purgeAfter),
    check("consultations_patient_sex_valid", sql`${t.patientSex} IS NULL OR ${oneOf("patient_sex", SEXES)}`),
    check(
      "consultations_patient_age_range",
      sql`${t.patientAgeYears} IS NULL OR ${t.patientAgeYears} BETWEEN 0 AND ${sql.raw(String(MAX_AGE_YEARS))}`,
    ),
    check("consultations_duration_unit_valid", sql`${t.durationUnit} IS NULL OR ${oneOf("duration_unit", DURATION_UNITS)}`),
    check(
      "consultations_duration_amount_range",
      sql`${t.durationAmount} IS NULL OR ${t.durationAmount} BETWEEN 1 AND ${sql.raw(String(MAX_DURATION_AMOUNT))}`,
    ),
    check("consultations_pregnancy_valid", sql`${t.pregnancy} IS NULL OR ${oneOf("pregnancy", PREGNANCY_STATES)}`),
    check("consultations_treatments_tried_length", sql`length(${t.treatmentsTried}) <= ${sql.raw(String(MAX_INTAKE_NOTE_CHARS))}`),
    check("consultations_allergies_length", sql`length(${t.allergies}) <= ${sql.raw(String(MAX_INTAKE_NOTE_CHARS))}`),
    uniqueIndex("consultations_patient_submission_key_unique").on(t.patientId, t.submissionKey),
    check("consultations_status_valid", oneOf("status", CONSULTATION_STATUSES)),
    check("consultations_priority_valid", oneOf("priority", PRIORITIES)),
    check("consultations_decline_reason_valid", sql`${t.declineReason} IS NULL OR ${oneOf("decline_reason", DECLINE_REASONS)}`),
    check(
      "consultations_decline_note_length",
      sql`${t.declineNote} IS NULL OR length(${t.declineNote}) <= ${sql.raw(String(MAX_DECLINE_NOTE_CHARS))}`,
    ),
    // A draft (photos first, words later) may still be without its title and complaint; nothing else may.
    check(
      "consultations_title_length",
      sql`length(${t.title}) <= ${sql.raw(String(MAX_TITLE_CHARS))} AND (${t.status} = 'awaiting_assets' OR length(${t.title}) >= 1)`,
    ),
    check("consultations_main_concern_present", sql`${t.status} = 'awaiting_assets' OR length(trim(${t.mainConcern})) > 0`),
    // A doctor is named exactly from acceptance on; a request in the queue has none.
    check(
      "consultations_doctor_matches_status",
      sql`(${t.status} IN ('awaiting_assets', 'pending') AND ${t.doctorId} IS NULL) OR ${t.status} IN ('cancelled') OR (${t.status} IN (${sql.raw(quotedList(WITH_DOCTOR_STATUSES))}) AND ${t.doctorId} IS NOT NULL)`,
    ),
  ],
);

export const consultationFiles = sqliteTable(
  "consultation_files",
  {
    id: id(),
    consultationId: text("consultation_id")
      .notNull()
      .references(() => consultations.id, { onDelete: "cascade" }),
    uploaderId: text("uploader_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind", { enum: FILE_KINDS }).notNull(),
    /** The generated R2 key; never derived from anything the user typed. */
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** A request photo's kind and body area (guided photos); null on chat images and older photos. */
    photoKind: text("photo_kind", { enum: PHOTO_KINDS }),
    bodyArea: text("body_area", { enum: BODY_AREAS }),
    createdAt: createdAt(),
    /** Set when the patient deleted the photo; the object is gone from R2 by then. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("consultation_files_storage_key_unique").on(t.storageKey),
    index("consultation_files_consultation_idx").on(t.consultationId, t.createdAt),
    index("consultation_files_uploader_idx").on(t.uploaderId),
    check("consultation_files_kind_valid", oneOf("kind", FILE_KINDS)),
    check("consultation_files_photo_kind_valid", sql`${t.photoKind} IS NULL OR ${oneOf("photo_kind", PHOTO_KINDS)}`),
    check("consultation_files_body_area_valid", sql`${t.bodyArea} IS NULL OR ${oneOf("body_area", BODY_AREAS)}`),
    check("consultation_files_content_type_valid", sql.raw(`content_type IN ('image/jpeg', 'image/png', 'image/webp')`)),
    check("consultation_files_size_range", sql`${t.sizeBytes} BETWEEN 1 AND ${sql.raw(String(MAX_PHOTO_BYTES))}`),
  ],
);

// Written on accept and closed on end but never read: the spec's record of who chats with whom in each consultation.
export const chats = sqliteTable(
  "chats",
  {
    consultationId: text("consultation_id")
      .primaryKey()
      .references(() => consultations.id, { onDelete: "cascade" }),
    doctorId: text("doctor_id")
      .notNull()
      .references(() => users.id),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: CHAT_STATUSES }).notNull().default("active"),
    createdAt: createdAt(),
  },
  (t) => [
    index("chats_doctor_idx").on(t.doctorId, t.status),
    index("chats_patient_idx").on(t.patientId, t.status),
    check("chats_status_valid", oneOf("status", CHAT_STATUSES)),
  ],
);

export const patientFeedback = sqliteTable(
  "patient_feedback",
  {
    id: id(),
    consultationId: text("consultation_id")
      .notNull()
      .references(() => consultations.id),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id),
    doctorId: text("doctor_id").references(() => users.id),
    rating: integer("rating").notNull(),
    feedbackMessage: text("feedback_message").notNull().default(""),
    allowContact: integer("allow_contact", { mode: "boolean" }).notNull().default(false),
    contactMethod: text("contact_method", { enum: CONTACT_METHODS }),
    contactValue: text("contact_value"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("patient_feedback_consultation_unique").on(t.consultationId),
    index("patient_feedback_doctor_idx").on(t.doctorId, t.createdAt),
    index("patient_feedback_patient_idx").on(t.patientId),
    index("patient_feedback_created_idx").on(t.createdAt),
    check("patient_feedback_rating_range", sql`${t.rating} BETWEEN ${sql.raw(String(RATING_MIN))} AND ${sql.raw(String(RATING_MAX))}`),
    check("patient_feedback_contact_method_valid", sql`${t.contactMethod} IS NULL OR ${oneOf("contact_method", CONTACT_METHODS)}`),
    check("patient_feedback_allow_contact_bool", isBoolean("allow_contact")),
    // Asking to be contacted needs both how and where.
    check(
      "patient_feedback_contact_complete",
      sql`${t.allowContact} = 0 OR (${t.contactMethod} IS NOT NULL AND length(trim(coalesce(${t.contactValue}, ''))) > 0)`,
    ),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A translation key for the notification's kind, e.g. `consultation_accepted`. */
    kind: text("kind").notNull(),
    consultationId: text("consultation_id").references(() => consultations.id, { onDelete: "cascade" }),
    link: text("link"),
    isRead: integer("is_read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.isRead, t.createdAt), check("notifications_is_read_bool", isBoolean("is_read"))],
);

export type Consultation = typeof consultations.$inferSelect;
export type NewConsultation = typeof consultations.$inferInsert;
export type ConsultationFile = typeof consultationFiles.$inferSelect;
