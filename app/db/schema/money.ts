// Money after payment (docs/decisions/0028): the append-only ledger (entries and their lines, in
// santim; triggers in migration 0010 refuse any UPDATE or DELETE of them) and each paid consultation's
// escrow hold, whose state says whether its money may be released.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { ESCROW_REVIEW_REASONS, ESCROW_STATUSES } from "../../domain/escrow";
import { LEDGER_ACCOUNTS, LEDGER_ENTRY_KINDS } from "../../domain/ledger";
import { users } from "./accounts";
import { createdAt, id, oneOf, updatedAt } from "./columns";
import { consultations } from "./consultations";
import { payments } from "./payments";

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_entries_key_unique").on(t.idempotencyKey),
    index("ledger_entries_consultation_idx").on(t.consultationId),
    index("ledger_entries_doctor_idx").on(t.doctorId, t.createdAt),
    index("ledger_entries_created_idx").on(t.createdAt),
    check("ledger_entries_kind_valid", oneOf("kind", LEDGER_ENTRY_KINDS)),
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
