// Money after payment (docs/decisions/0028): the append-only ledger (entries and their lines, in
// santim; triggers in migration 0010 refuse any UPDATE or DELETE of them) and each paid consultation's
// escrow hold, whose state says whether its money may be released.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { DISPUTE_REASONS, DISPUTE_RESOLUTIONS, DISPUTE_STATUSES, MAX_DISPUTE_TEXT_CHARS } from "../../domain/disputes.ts";
import { ESCROW_REVIEW_REASONS, ESCROW_STATUSES } from "../../domain/escrow.ts";
import { LEDGER_ACCOUNTS, LEDGER_ENTRY_KINDS } from "../../domain/ledger.ts";
import { PAYOUT_CHANNELS, PAYOUT_STATUSES } from "../../domain/payouts.ts";
import { REFUND_CHANNELS, REFUND_REASONS, REFUND_STATUSES, STUCK_REASONS } from "../../domain/refunds.ts";
import { users } from "./accounts.ts";
import { createdAt, id, isBoolean, oneOf, updatedAt } from "./columns.ts";
import { consultations } from "./consultations.ts";
import { payments } from "./payments.ts";

export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: id(),
    /** What the entry records (`payment:{tx_ref}:captured`): the same event twice is one entry. */
    idempotencyKey: text("idempotency_key").notNull(),
    kind: text("kind", { enum: LEDGER_ENTRY_KINDS }).notNull(),
    consultationId: text("consultation_id").references(() => consultations.id),
    doctorId: text("doctor_id").references(() => users.id),
    paymentId: text("payment_id").references(() => payments.id),
    /** How many lines the entry has: the database checks they sum to zero once the last is written. */
    lineCount: integer("line_count").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_entries_key_unique").on(t.idempotencyKey),
    index("ledger_entries_consultation_idx").on(t.consultationId),
    index("ledger_entries_doctor_idx").on(t.doctorId, t.createdAt),
    index("ledger_entries_created_idx").on(t.createdAt),
    check("ledger_entries_kind_valid", oneOf("kind", LEDGER_ENTRY_KINDS)),
    check("ledger_entries_line_count", sql`${t.lineCount} >= 2`),
  ],
);

export const ledgerLines = sqliteTable(
  "ledger_lines",
  {
    id: id(),
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id),
    account: text("account", { enum: LEDGER_ACCOUNTS }).notNull(),
    /** The consultation or doctor the account is kept for; "" for the platform's own accounts. */
    subject: text("subject").notNull().default(""),
    /** Debit when positive, credit when negative; never zero. */
    amountSantim: integer("amount_santim").notNull(),
  },
  (t) => [
    index("ledger_lines_entry_idx").on(t.entryId),
    index("ledger_lines_account_idx").on(t.account, t.subject),
    check("ledger_lines_account_valid", oneOf("account", LEDGER_ACCOUNTS)),
    check("ledger_lines_amount_nonzero", sql`${t.amountSantim} <> 0`),
  ],
);

/** A paid consultation's fee held in escrow: one per consultation, for the payment that started it. */
export const escrows = sqliteTable(
  "escrows",
  {
    consultationId: text("consultation_id")
      .primaryKey()
      .references(() => consultations.id),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    doctorId: text("doctor_id")
      .notNull()
      .references(() => users.id),
    amountSantim: integer("amount_santim").notNull(),
    status: text("status", { enum: ESCROW_STATUSES }).notNull().default("held"),
    /** Why an admin must decide before it is released. */
    reviewReason: text("review_reason", { enum: ESCROW_REVIEW_REASONS }),
    /** When the patient said the consultation is complete (which releases it at once). */
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    releasedAt: integer("released_at", { mode: "timestamp_ms" }),
    /** Stamped by each change, so the rows written with it are written only by the call that made it. */
    lastChangeId: text("last_change_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("escrows_payment_unique").on(t.paymentId),
    index("escrows_status_idx").on(t.status),
    index("escrows_doctor_idx").on(t.doctorId, t.status),
    check("escrows_status_valid", oneOf("status", ESCROW_STATUSES)),
    check("escrows_review_reason_valid", oneOf("review_reason", ESCROW_REVIEW_REASONS)),
    check("escrows_amount_positive", sql`${t.amountSantim} > 0`),
    check("escrows_released_complete", sql`(${t.status} = 'released') = (${t.releasedAt} IS NOT NULL)`),
  ],
);

/** A patient's dispute of a consultation: one per consultation, open until an admin resolves it. */
export const disputes = sqliteTable(
  "disputes",
  {
    id: id(),
    consultationId: text("consultation_id")
      .notNull()
      .references(() => consultations.id),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id),
    doctorId: text("doctor_id")
      .notNull()
      .references(() => users.id),
    reason: text("reason", { enum: DISPUTE_REASONS }).notNull(),
    patientWords: text("patient_words").notNull(),
    /** The doctor's one answer. */
    doctorAnswer: text("doctor_answer"),
    doctorAnsweredAt: integer("doctor_answered_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: DISPUTE_STATUSES }).notNull().default("open"),
    resolution: text("resolution", { enum: DISPUTE_RESOLUTIONS }),
    /** What the resolution gave back to the patient (0 for a release). */
    refundSantim: integer("refund_santim"),
    /** The admin's note, read by both sides. */
    resolutionNote: text("resolution_note"),
    resolvedBy: text("resolved_by").references(() => users.id),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    lastChangeId: text("last_change_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("disputes_consultation_unique").on(t.consultationId),
    index("disputes_status_idx").on(t.status, t.createdAt),
    index("disputes_doctor_idx").on(t.doctorId),
    check("disputes_reason_valid", oneOf("reason", DISPUTE_REASONS)),
    check("disputes_status_valid", oneOf("status", DISPUTE_STATUSES)),
    check("disputes_resolution_valid", oneOf("resolution", DISPUTE_RESOLUTIONS)),
    check("disputes_resolved_complete", sql`(${t.status} = 'resolved') = (${t.resolution} IS NOT NULL AND ${t.resolvedAt} IS NOT NULL)`),
    check("disputes_words_length", sql`length(${t.patientWords}) BETWEEN 1 AND ${sql.raw(String(MAX_DISPUTE_TEXT_CHARS))}`),
  ],
);

/** Money going back to a patient: recorded before the provider is asked, settled by what it says. */
export const refunds = sqliteTable(
  "refunds",
  {
    id: id(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    consultationId: text("consultation_id")
      .notNull()
      .references(() => consultations.id),
    /** Our own unique reference, sent to the provider. */
    reference: text("reference").notNull(),
    amountSantim: integer("amount_santim").notNull(),
    reason: text("reason", { enum: REFUND_REASONS }).notNull(),
    channel: text("channel", { enum: REFUND_CHANNELS }).notNull().default("provider"),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    /** Whether the provider has taken the request (asked again until it has, or until it says no for good). */
    accepted: integer("accepted", { mode: "boolean" }).notNull().default(false),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    providerReference: text("provider_reference"),
    /** The provider's last words on a failure, or an admin's reason for a refund made outside it. */
    lastError: text("last_error"),
    /** Why it waits for an admin (still pending: only a verify that says failed fails it). */
    reviewReason: text("review_reason", { enum: STUCK_REASONS }),
    note: text("note"),
    requestedBy: text("requested_by").references(() => users.id),
    lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    /** Stamped by the call that settles it, so the rows written with it are written only by that call. */
    lastChangeId: text("last_change_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("refunds_reference_unique").on(t.reference),
    // A payment is refunded once: a second refund of it can only follow one that failed.
    uniqueIndex("refunds_one_per_payment")
      .on(t.paymentId)
      .where(sql`status <> 'failed'`),
    index("refunds_consultation_idx").on(t.consultationId),
    index("refunds_status_idx").on(t.status, t.nextAttemptAt),
    check("refunds_status_valid", oneOf("status", REFUND_STATUSES)),
    check("refunds_reason_valid", oneOf("reason", REFUND_REASONS)),
    check("refunds_channel_valid", oneOf("channel", REFUND_CHANNELS)),
    check("refunds_accepted_bool", isBoolean("accepted")),
    check("refunds_amount_positive", sql`${t.amountSantim} > 0`),
    check("refunds_review_reason_valid", oneOf("review_reason", STUCK_REASONS)),
  ],
);

/** Where a doctor is paid: a bank or wallet from the provider's list, the name on it and its number. */
export const doctorPayoutAccounts = sqliteTable("doctor_payout_accounts", {
  doctorId: text("doctor_id")
    .primaryKey()
    .references(() => users.id),
  bankCode: text("bank_code").notNull(),
  bankName: text("bank_name").notNull(),
  accountName: text("account_name").notNull(),
  accountNumber: text("account_number").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A transfer of a doctor's available balance to their account, with our own unique reference. */
export const payouts = sqliteTable(
  "payouts",
  {
    id: id(),
    doctorId: text("doctor_id")
      .notNull()
      .references(() => users.id),
    reference: text("reference").notNull(),
    amountSantim: integer("amount_santim").notNull(),
    // Where it was sent, as it was then (the doctor may change their details later).
    bankCode: text("bank_code").notNull(),
    bankName: text("bank_name").notNull(),
    accountName: text("account_name").notNull(),
    accountNumber: text("account_number").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    channel: text("channel", { enum: PAYOUT_CHANNELS }).notNull().default("provider"),
    accepted: integer("accepted", { mode: "boolean" }).notNull().default(false),
    attempts: integer("attempts").notNull().default(0),
    providerReference: text("provider_reference"),
    failureReason: text("failure_reason"),
    /** Why it waits for an admin (still pending: only a verify that says failed fails it). */
    reviewReason: text("review_reason", { enum: STUCK_REASONS }),
    /** The provider's charge on the transfer, once its verify or webhook says it; booked to provider_fees. */
    feeSantim: integer("fee_santim"),
    /** An admin's reason, for a payout settled outside the provider or failed by hand. */
    note: text("note"),
    /** The admin who ran it by hand; null for the weekly run. */
    requestedBy: text("requested_by").references(() => users.id),
    lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    /** Stamped by the call that settles it, so the rows written with it are written only by that call. */
    lastChangeId: text("last_change_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payouts_reference_unique").on(t.reference),
    index("payouts_doctor_idx").on(t.doctorId, t.createdAt),
    // One payout in flight per doctor: two runs at once cannot both pay the same balance.
    uniqueIndex("payouts_one_pending")
      .on(t.doctorId)
      .where(sql`status = 'pending'`),
    index("payouts_status_idx").on(t.status, t.createdAt),
    check("payouts_status_valid", oneOf("status", PAYOUT_STATUSES)),
    check("payouts_accepted_bool", isBoolean("accepted")),
    check("payouts_amount_positive", sql`${t.amountSantim} > 0`),
    check("payouts_channel_valid", oneOf("channel", PAYOUT_CHANNELS)),
    check("payouts_review_reason_valid", oneOf("review_reason", STUCK_REASONS)),
    check("payouts_fee_valid", sql`${t.feeSantim} IS NULL OR ${t.feeSantim} >= 0`),
  ],
);
