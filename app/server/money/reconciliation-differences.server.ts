// The one writer of reconciliation differences (docs/decisions/0045): a difference between our books and
// the provider's, written beside whatever found it (a reconciliation run, a chargeback), and resolved by
// an admin with a note. The same difference found again while it is open is one row.
import { and, eq, type SQL } from "drizzle-orm";

import { reconciliationDifferences } from "~/db/schema";
import type { DifferenceKind, DifferenceSubject } from "~/domain/reconciliation";
import { type DifferenceDetail, storedDifferenceDetail } from "~/domain/reconciliation-details";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";

export interface Difference {
  kind: DifferenceKind;
  subject: DifferenceSubject;
  reference: string;
  consultationId?: string | null;
  /** What our books say, and what the provider says, worded where they are shown. */
  ours: DifferenceDetail;
  theirs: DifferenceDetail;
  oursSantim: number | null;
  theirsSantim: number | null;
}

/** The statement that records `difference` (found by `runId`, or by a webhook when null), if `onlyIf` holds and none like it is open. */
export function differenceStatement(db: Database, difference: Difference, runId: string | null, now: Date, onlyIf?: SQL) {
  return insertWhere(
    db,
    reconciliationDifferences,
    {
      id: crypto.randomUUID(),
      runId,
      kind: difference.kind,
      subject: difference.subject,
      reference: difference.reference,
      consultationId: difference.consultationId ?? null,
      ours: storedDifferenceDetail(difference.ours),
      theirs: storedDifferenceDetail(difference.theirs),
      oursSantim: difference.oursSantim,
      theirsSantim: difference.theirsSantim,
      status: "open",
      createdAt: now,
      updatedAt: now,
    },
    onlyIf,
  );
}

/** An admin resolves an open difference with a note, once (a second click, or a second admin, changes nothing). */
export async function resolveDifference(db: Database, adminId: string, differenceId: string, note: string, now: Date): Promise<boolean> {
  const [resolved] = await db.batch([
    db
      .update(reconciliationDifferences)
      .set({ status: "resolved", resolutionNote: note, resolvedBy: adminId, resolvedAt: now, updatedAt: now })
      .where(and(eq(reconciliationDifferences.id, differenceId), eq(reconciliationDifferences.status, "open")))
      .returning({ id: reconciliationDifferences.id }),
    auditIfChanged(
      db,
      reconciliationDifferences,
      and(
        eq(reconciliationDifferences.id, differenceId),
        eq(reconciliationDifferences.resolvedBy, adminId),
        eq(reconciliationDifferences.resolvedAt, now),
      ),
      {
        action: "reconciliation.resolved",
        actorId: adminId,
        targetType: "reconciliation_difference",
        targetId: reconciliationDifferences.id,
        ipAddress: null,
        now,
      },
    ),
  ]);
  return resolved.length === 1;
}
