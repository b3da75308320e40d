// Payments: each attempt to pay for a consultation, its provider reference, and refunds.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { PAYMENT_STATUSES } from "../../domain/payment-attempts.ts";
import { users } from "./accounts.ts";
import { createdAt, id, isBoolean, oneOf, updatedAt } from "./columns.ts";
import { consultations } from "./consultations.ts";

export const PAYMENT_PROVIDERS = ["chapa", "sandbox"] as const;
/**
 * Why an admin must look at a payment that is not simply late: still open after we stopped asking the
 * provider, the provider's record disagreeing with ours, or a status of the provider's that is not a
 * plain success, failure or wait (refunded, reversed, one we do not know).
 */
export const PAYMENT_REVIEW_REASONS = ["open_too_long", "provider_disagrees", "provider_status"] as const;
export type PaymentReviewReason = (typeof PAYMENT_REVIEW_REASONS)[number];

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
    amountSantim: integer("amount_santim").notNull(),
    currency: text("currency").notNull().default("ETB"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("initialized"),
    checkoutUrl: text("checkout_url"),
    providerReference: text("provider_reference"),
    /** A payment confirmed after the window closed, or one with a `reviewReason`: an admin must look at it. */
    needsAdminReview: integer("needs_admin_review", { mode: "boolean" }).notNull().default(false),
    reviewReason: text("review_reason", { enum: PAYMENT_REVIEW_REASONS }),
    /** What the provider's verify said when it was flagged (JSON: status, amount, currency, tx_ref), for the admin. */
    providerAnswer: text("provider_answer"),
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
    check("payments_amount_positive", sql`${t.amountSantim} > 0`),
    check("payments_review_bool", isBoolean("needs_admin_review")),
    // NULL (nothing to review) passes: a CHECK fails only on false.
    check("payments_review_reason_valid", oneOf("review_reason", PAYMENT_REVIEW_REASONS)),
    check("payments_refund_complete", sql`(${t.refundedAt} IS NULL) = (${t.refundedBy} IS NULL)`),
  ],
);
