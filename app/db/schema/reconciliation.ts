// Reconciliation with the payment provider (docs/decisions/0045): each run, and each difference it found
// between our books and the provider's, open until an admin resolves it.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { DIFFERENCE_KINDS, DIFFERENCE_STATUSES, DIFFERENCE_SUBJECTS } from "../../domain/reconciliation.ts";
import { users } from "./accounts.ts";
import { createdAt, id, oneOf, updatedAt } from "./columns.ts";

export const reconciliationRuns = sqliteTable(
  "reconciliation_runs",
  {
    id: id(),
    /** The movements compared: created in [periodStart, periodEnd). */
    periodStart: integer("period_start", { mode: "timestamp_ms" }).notNull(),
    periodEnd: integer("period_end", { mode: "timestamp_ms" }).notNull(),
    /** The admin who asked for it; null for the daily job. */
    requestedBy: text("requested_by").references(() => users.id),
    transactionsCompared: integer("transactions_compared").notNull().default(0),
    refundsCompared: integer("refunds_compared").notNull().default(0),
    transfersCompared: integer("transfers_compared").notNull().default(0),
    /** What the provider says it holds for us, and what our books say it holds, when it could be asked. */
    providerBalanceSantim: integer("provider_balance_santim"),
    booksBalanceSantim: integer("books_balance_santim"),
    differencesFound: integer("differences_found").notNull().default(0),
    /** Why the run could not finish (the provider could not be asked), when it could not. */
    error: text("error"),
    createdAt: createdAt(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("reconciliation_runs_created_idx").on(t.createdAt)],
);

export const reconciliationDifferences = sqliteTable(
  "reconciliation_differences",
  {
    id: id(),
    /** The run that first found it (a later run that finds it again leaves it as it is). */
    runId: text("run_id").references(() => reconciliationRuns.id),
    kind: text("kind", { enum: DIFFERENCE_KINDS }).notNull(),
    subject: text("subject", { enum: DIFFERENCE_SUBJECTS }).notNull(),
    /** Our reference for it (a tx_ref, a refund's or a transfer's), or "balance". */
    reference: text("reference").notNull(),
    consultationId: text("consultation_id"),
    /** What our books say, and what the provider says, in a line each (amounts in santim beside them). */
    ours: text("ours").notNull(),
    theirs: text("theirs").notNull(),
    oursSantim: integer("ours_santim"),
    theirsSantim: integer("theirs_santim"),
    status: text("status", { enum: DIFFERENCE_STATUSES }).notNull().default("open"),
    resolutionNote: text("resolution_note"),
    resolvedBy: text("resolved_by").references(() => users.id),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The same difference found by two runs is one row while it is open.
    uniqueIndex("reconciliation_differences_open_unique")
      .on(t.kind, t.reference)
      .where(sql`status = 'open'`),
    index("reconciliation_differences_status_idx").on(t.status, t.createdAt),
    check("reconciliation_differences_kind_valid", oneOf("kind", DIFFERENCE_KINDS)),
    check("reconciliation_differences_subject_valid", oneOf("subject", DIFFERENCE_SUBJECTS)),
    check("reconciliation_differences_status_valid", oneOf("status", DIFFERENCE_STATUSES)),
    check("reconciliation_differences_resolved_complete", sql`(${t.status} = 'resolved') = (${t.resolvedAt} IS NOT NULL)`),
  ],
);
