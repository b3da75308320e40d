// The one source of truth for Qoda's tables. `npm run db:generate` turns changes into a new SQL file
// under migrations/; never edit a migration that has been applied.
//
// Times are stored as milliseconds since the epoch (`timestamp_ms`). Ids are random UUIDs, except the
// append-only audit log, which counts. Enumerations and ranges are CHECK constraints, so a bad value
// is refused by the database itself whatever code wrote it.

import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { MAX_LICENCE_BYTES, MAX_PHOTO_BYTES, MAX_TITLE_CHARS, MIN_EXPERIENCE_YEARS, RATING_MAX, RATING_MIN } from "../domain/constants";
import {
  CONSULTATION_STATUSES,
  DECLINE_REASONS,
  DEFAULT_PRIORITY,
  MAX_DECLINE_NOTE_CHARS,
  PRIORITIES,
  WITH_DOCTOR_STATUSES,
} from "../domain/consultation-status";
import { CONTACT_METHODS } from "../domain/feedback";
import { LANGUAGES } from "../domain/languages";
import { DEFAULT_DOCTOR_SPECIALTY, DOCTOR_STATUSES, ROLES } from "../domain/roles";

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date());
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date());

/** `'a', 'b'` for a CHECK constraint; values are our own constants, never user input. */
const quotedList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");
/** `column IN ('a', 'b')` for a CHECK constraint. */
function oneOf(column: string, values: readonly string[]) {
  return sql.raw(`${column} IN (${quotedList(values)})`);
}
const isBoolean = (column: string) => sql.raw(`${column} IN (0, 1)`);

export const FILE_KINDS = ["photo", "chat_image"] as const;
export const PAYMENT_STATUSES = ["initialized", "paid", "failed", "paid_after_expiry"] as const;
export const PAYMENT_PROVIDERS = ["chapa", "sandbox"] as const;
export const CHAT_STATUSES = ["active", "closed"] as const;
export const REGISTRATION_STATUSES = ["pending", "approved", "rejected"] as const;
/** queued: waiting for its (next) attempt; sending: claimed by a sender until next_attempt_at; failed: given up. */
export const MAIL_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export const AUTH_TOKEN_PURPOSES = ["email_confirmation", "password_reset", "invite"] as const;

export const users = sqliteTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased; the unique index makes one account per address. */
    email: text("email").notNull(),
    emailConfirmedAt: integer("email_confirmed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), check("users_email_lower", sql`${t.email} = lower(${t.email})`)],
);

export const passwordCredentials = sqliteTable("password_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`: the algorithm travels with the hash. */
  passwordHash: text("password_hash").notNull(),
  updatedAt: updatedAt(),
});

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the random cookie value, so a copy of the table cannot be replayed as cookies. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    /** The absolute end of the session, however active it stays. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

export const userRoles = sqliteTable(
  "user_roles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("user_roles_role_idx").on(t.role), check("user_roles_role_valid", oneOf("role", ROLES))],
);

export const profiles = sqliteTable(
  "profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** E.164, e.g. +251911234567. */
    phone: text("phone"),
    preferredLanguage: text("preferred_language", { enum: LANGUAGES }).notNull().default("en"),
    consentTerms: integer("consent_terms", { mode: "boolean" }).notNull().default(false),
    consentPrivacy: integer("consent_privacy", { mode: "boolean" }).notNull().default(false),
    consentTimestamp: integer("consent_timestamp", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("profiles_name_idx").on(t.lastName, t.firstName),
    check("profiles_language_valid", oneOf("preferred_language", LANGUAGES)),
    check("profiles_consent_terms_bool", isBoolean("consent_terms")),
    check("profiles_consent_privacy_bool", isBoolean("consent_privacy")),
  ],
);

export const doctors = sqliteTable(
  "doctors",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: DOCTOR_STATUSES }).notNull().default("active"),
    specialty: text("specialty").notNull().default(DEFAULT_DOCTOR_SPECIALTY),
    /** The short code patients may give to ask for this doctor. */
    doctorCode: text("doctor_code").notNull(),
    licenceNumber: text("licence_number"),
    licenceExpiresOn: text("licence_expires_on"),
    licenceFileKey: text("licence_file_key"),
    experienceYears: integer("experience_years"),
    profilePictureKey: text("profile_picture_key"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("doctors_doctor_code_unique").on(t.doctorCode),
    index("doctors_status_idx").on(t.status),
    check("doctors_status_valid", oneOf("status", DOCTOR_STATUSES)),
    check(
      "doctors_experience_range",
      sql`${t.experienceYears} IS NULL OR ${t.experienceYears} >= ${sql.raw(String(MIN_EXPERIENCE_YEARS))}`,
    ),
  ],
);

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
    createdAt: createdAt(),
    /** Set when the patient deleted the photo; the object is gone from R2 by then. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("consultation_files_storage_key_unique").on(t.storageKey),
    index("consultation_files_consultation_idx").on(t.consultationId, t.createdAt),
    index("consultation_files_uploader_idx").on(t.uploaderId),
    check("consultation_files_kind_valid", oneOf("kind", FILE_KINDS)),
    check("consultation_files_content_type_valid", sql.raw(`content_type IN ('image/jpeg', 'image/png', 'image/webp')`)),
    check("consultation_files_size_range", sql`${t.sizeBytes} BETWEEN 1 AND ${sql.raw(String(MAX_PHOTO_BYTES))}`),
  ],
);

export const payments = sqliteTable(
  "payments",
  {
    id: id(),
    consultationId: text("consultation_id")
      .notNull()
      .references(() => consultations.id),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id),
    /** Our own fresh reference for each attempt, sent to the provider. */
    txRef: text("tx_ref").notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    amountEtb: integer("amount_etb").notNull(),
    currency: text("currency").notNull().default("ETB"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("initialized"),
    checkoutUrl: text("checkout_url"),
    providerReference: text("provider_reference"),
    /** A payment confirmed after the window closed: an admin must refund or re-match it. */
    needsAdminReview: integer("needs_admin_review", { mode: "boolean" }).notNull().default(false),
    /** When an admin recorded the money as sent back, and who. */
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
    refundedBy: text("refunded_by").references(() => users.id),
    createdAt: createdAt(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payments_tx_ref_unique").on(t.txRef),
    index("payments_consultation_idx").on(t.consultationId),
    index("payments_patient_idx").on(t.patientId, t.createdAt),
    index("payments_status_idx").on(t.status, t.createdAt),
    index("payments_review_idx").on(t.needsAdminReview),
    check("payments_status_valid", oneOf("status", PAYMENT_STATUSES)),
    check("payments_provider_valid", oneOf("provider", PAYMENT_PROVIDERS)),
    check("payments_amount_positive", sql`${t.amountEtb} > 0`),
    check("payments_review_bool", isBoolean("needs_admin_review")),
    check("payments_refund_complete", sql`(${t.refundedAt} IS NULL) = (${t.refundedBy} IS NULL)`),
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

export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("queued"),
    providerMessageId: text("provider_message_id"),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** Delivery attempts so far (each claim counts one). */
    attempts: integer("attempts").notNull().default(0),
    /** When a sender may next take it: due now when queued, or when a sender's claim lapses. */
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" })
      .notNull()
      .$defaultFn(() => new Date()),
    lastError: text("last_error"),
  },
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt),
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_to_idx").on(t.toEmail, t.createdAt),
    check("mail_outbox_status_valid", oneOf("status", MAIL_STATUSES)),
  ],
);

/** One-time links (confirm email, reset password, accept an invite). Only the token's hash is kept. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    /** SHA-256 of the random token in the link. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("auth_tokens_user_idx").on(t.userId, t.purpose),
    index("auth_tokens_expires_idx").on(t.expiresAt),
    check("auth_tokens_purpose_valid", oneOf("purpose", AUTH_TOKEN_PURPOSES)),
  ],
);

/** Sign-ins through another provider (Google), by that provider's stable user id. */
export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("oauth_accounts_user_idx").on(t.userId)],
);

/**
 * Which rooms hold a live socket of which session, so that ending a session (sign-out, a password
 * change, a deactivation) can close its sockets at once. Rows come and go with the sockets; none
 * outlives its session (housekeeping removes any left behind).
 */
export const roomConnections = sqliteTable(
  "room_connections",
  {
    /** The room's Durable Object class ("DoctorsLobby", "ConsultationRoom") and its name. */
    roomClass: text("room_class").notNull(),
    roomName: text("room_name").notNull(),
    /** partyserver's id of the connection, unique within its room. */
    connectionId: text("connection_id").notNull(),
    sessionId: text("session_id").notNull(),
    connectedAt: integer("connected_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roomClass, t.roomName, t.connectionId] }),
    index("room_connections_session_idx").on(t.sessionId),
    index("room_connections_connected_at_idx").on(t.connectedAt),
  ],
);

/** Attempts counted for rate limits: one row per attempt, keyed by what is limited (e.g. `sign-in:account:<email>`). */
export const rateLimitHits = sqliteTable(
  "rate_limit_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    hitAt: integer("hit_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("rate_limit_hits_key_idx").on(t.key, t.hitAt), index("rate_limit_hits_hit_at_idx").on(t.hitAt)],
);

export type User = typeof users.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type Doctor = typeof doctors.$inferSelect;
export type Consultation = typeof consultations.$inferSelect;
export type NewConsultation = typeof consultations.$inferInsert;
export type ConsultationFile = typeof consultationFiles.$inferSelect;
export type AuditEntry = typeof auditLog.$inferInsert;
