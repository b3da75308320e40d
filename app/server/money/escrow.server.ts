// A paid consultation's escrow (docs/decisions/0028): the fee captured into the consultation's escrow
// account when its payment is confirmed, held until the patient confirms or the hold falls due, then
// released to the doctor's payable and the platform's revenue, exactly once.
import { and, asc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

import { consultations, doctors, escrows, notifications } from "~/db/schema";
import type { ConsultationStatus } from "~/domain/consultation-status";
import { ESCROW_RELEASE_AFTER_MS, type ReleaseRefusal, releaseRefusal } from "~/domain/escrow";
import { escrowReleased, paymentCaptured } from "~/domain/ledger";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { notificationRow } from "~/server/db/notifications.server";

import { ledgerEntryStatements } from "./ledger.server";

interface Capture {
  paymentId: string;
  txRef: string;
  consultationId: string;
  amountSantim: number;
  /** What the provider kept as its charge, as its verify reported it. */
  chargeSantim: number;
}

/**
 * The statements that capture a payment that started its consultation (the move selected by `moved`):
 * its escrow hold for the consultation's doctor, and the ledger entry, both only if this call moved it.
 */
export function captureOfMove(db: Database, moved: SQL | undefined, capture: Capture, now: Date): Array<BatchItem<"sqlite">> {
  return [
    db
      .insert(escrows)
      .select(
        db
          .select({
            consultationId: consultations.id,
            paymentId: sql<string>`${capture.paymentId}`.as("payment_id"),
            doctorId: sql<string>`${consultations.doctorId}`.as("doctor_id"),
            amountSantim: sql<number>`${capture.amountSantim}`.as("amount_santim"),
            status: sql<"held">`'held'`.as("status"),
            reviewReason: sql<null>`NULL`.as("review_reason"),
            confirmedAt: sql<null>`NULL`.as("confirmed_at"),
            releasedAt: sql<null>`NULL`.as("released_at"),
            lastChangeId: sql<null>`NULL`.as("last_change_id"),
            createdAt: sql<number>`${now.getTime()}`.as("created_at"),
            updatedAt: sql<number>`${now.getTime()}`.as("updated_at"),
          })
          .from(consultations)
          .where(and(moved, sql`${consultations.doctorId} IS NOT NULL`)),
      )
      .onConflictDoNothing(),
    ...ledgerEntryStatements(db, paymentCaptured(capture), now, sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${moved})`),
  ];
}

/** The statements that capture a late payment (flagged by this call, as `flagged` selects) into escrow, to be refunded. */
export function captureOfLatePayment(db: Database, flagged: SQL, capture: Capture, now: Date): Array<BatchItem<"sqlite">> {
  return ledgerEntryStatements(db, paymentCaptured(capture), now, flagged);
}

type EscrowRow = typeof escrows.$inferSelect;

export async function escrowOf(db: Database, consultationId: string): Promise<EscrowRow | null> {
  return (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) })) ?? null;
}

type ReleaseOutcome = { ok: true } | { ok: false; reason: ReleaseRefusal | "not_found" | "lost_race" };

interface ReleaseFacts {
  escrow: EscrowRow;
  consultationStatus: ConsultationStatus;
  completedAt: Date | null;
}

/**
 * Releases one consultation's escrow if the domain allows it now: the hold marked released and the
 * ledger entry that moves its money to the doctor's payable and the platform's revenue, with the audit
 * entry, in one batch, written only by the call whose conditional update took.
 */
function releaseStatements(db: Database, facts: ReleaseFacts, by: "patient" | "schedule", actorId: string | null, now: Date) {
  const { escrow } = facts;
  const changeId = crypto.randomUUID();
  const changedByThisCall = and(eq(escrows.consultationId, escrow.consultationId), eq(escrows.lastChangeId, changeId));
  // The checks of the domain's decision, again in the statement itself, so a dispute or a second job
  // that got there first leaves this one changing nothing.
  const stillDue = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${escrow.consultationId} AND ${consultations.status} = 'completed'${
    by === "schedule" ? sql` AND ${consultations.completedAt} <= ${now.getTime() - ESCROW_RELEASE_AFTER_MS}` : sql``
  })`;
  return [
    db
      .update(escrows)
      .set({
        status: "released",
        releasedAt: now,
        confirmedAt: by === "patient" ? now : escrow.confirmedAt,
        lastChangeId: changeId,
        updatedAt: now,
      })
      .where(and(eq(escrows.consultationId, escrow.consultationId), eq(escrows.status, "held"), stillDue))
      .returning({ consultationId: escrows.consultationId }),
    ...ledgerEntryStatements(
      db,
      escrowReleased({ consultationId: escrow.consultationId, doctorId: escrow.doctorId, amountSantim: escrow.amountSantim }),
      now,
      sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${changedByThisCall})`,
    ),
    // The doctor is told their share is theirs (in the app; the weekly payout's email says it again).
    insertWhere(
      db,
      notifications,
      notificationRow(escrow.doctorId, "earnings_released", escrow.consultationId, "/doctor/earnings", now),
      sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${changedByThisCall})`,
    ),
    auditIfChanged(db, escrows, changedByThisCall, {
      action: "escrow.released",
      actorId,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('by', ${by}, 'amountSantim', ${escrows.amountSantim})`,
      now,
    }),
  ] as const;
}

async function releaseFactsOf(db: Database, consultationId: string): Promise<ReleaseFacts | null> {
  const [row] = await db
    .select({ escrow: escrows, consultationStatus: consultations.status, completedAt: consultations.completedAt })
    .from(escrows)
    .innerJoin(consultations, eq(consultations.id, escrows.consultationId))
    .where(eq(escrows.consultationId, consultationId));
  return row ?? null;
}

/** The patient says the consultation is complete: its escrow is released at once. */
export async function confirmConsultationComplete(
  db: Database,
  patientId: string,
  consultationId: string,
  now: Date,
): Promise<ReleaseOutcome> {
  const facts = await releaseFactsOf(db, consultationId);
  // Another patient's consultation reads as no escrow at all.
  const owned =
    facts &&
    (await db.query.consultations.findFirst({ where: and(eq(consultations.id, consultationId), eq(consultations.patientId, patientId)) }));
  if (!facts || !owned) return { ok: false, reason: "not_found" };
  const refusal = releaseRefusal(
    { status: facts.escrow.status, consultationStatus: facts.consultationStatus, completedAt: facts.completedAt },
    "patient",
    now,
  );
  if (refusal) return { ok: false, reason: refusal };
  const [released] = await db.batch(releaseStatements(db, facts, "patient", patientId, now));
  return released.length === 1 ? { ok: true } : { ok: false, reason: "lost_race" };
}

/**
 * Releases per run of the job: D1 counts each statement of a batch against the queries one invocation
 * may make (1,000), and the other jobs of the run need theirs; the cron's next run takes the rest.
 */
const RELEASES_PER_RUN = 100;
/** Releases handed to D1 in one batch: each is seven statements. */
const RELEASES_PER_BATCH = 25;

/**
 * The scheduled release: every hold whose consultation ended 72 hours ago or more, still held (no
 * dispute, no review), released once, in batches. Two runs at once release each hold once: the
 * conditional update decides, and the ledger's key could not be taken twice anyway. `onReleased` hears
 * of each consultation this run released.
 */
export async function releaseDueEscrows(
  db: Database,
  now: Date,
  { limit = RELEASES_PER_RUN, onReleased }: { limit?: number; onReleased?: (consultationId: string) => Promise<void> } = {},
): Promise<number> {
  const due = await db
    .select({ escrow: escrows, consultationStatus: consultations.status, completedAt: consultations.completedAt })
    .from(escrows)
    .innerJoin(consultations, eq(consultations.id, escrows.consultationId))
    .where(
      and(
        eq(escrows.status, "held"),
        eq(consultations.status, "completed"),
        lte(consultations.completedAt, new Date(now.getTime() - ESCROW_RELEASE_AFTER_MS)),
      ),
    )
    .orderBy(asc(consultations.completedAt))
    .limit(limit);
  let released = 0;
  for (let start = 0; start < due.length; start += RELEASES_PER_BATCH) {
    const statements = due
      .slice(start, start + RELEASES_PER_BATCH)
      .filter(
        (facts) =>
          releaseRefusal(
            { status: facts.escrow.status, consultationStatus: facts.consultationStatus, completedAt: facts.completedAt },
            "schedule",
            now,
          ) === null,
      )
      .flatMap((facts) => releaseStatements(db, facts, "schedule", null, now));
    if (statements.length === 0) continue;
    const results = await db.batch(statements as unknown as [BatchItem<"sqlite">, ...Array<BatchItem<"sqlite">>]);
    // Every release's first statement is its update; those that returned a row released.
    const releasedNow = results
      .filter((result) => Array.isArray(result) && result.length === 1 && "consultationId" in (result[0] as object))
      .map((result) => (result as Array<{ consultationId: string }>)[0]!.consultationId);
    released += releasedNow.length;
    for (const consultationId of releasedNow) await onReleased?.(consultationId);
  }
  return released;
}

/** A consultation under way this long after its payment has been left by its doctor, for an admin to look at. */
const STRANDED_AFTER_MS = 7 * 24 * 60 * 60_000;

/**
 * The job: a paid consultation whose doctor can no longer finish it (deactivated, or still not ended a
 * week after payment) has its escrow sent to review, so it is neither released nor forgotten: admins
 * see it on /admin/finance and may cancel it, which refunds the patient; the patient reads that it is
 * under review. Safe to run twice: only a hold still `held` changes.
 */
export async function sendStrandedEscrowsToReview(db: Database, now: Date): Promise<number> {
  const stranded = sql`${escrows.consultationId} IN (
    SELECT ${consultations.id} FROM ${consultations}
    LEFT JOIN ${doctors} ON ${doctors.userId} = ${consultations.doctorId}
    WHERE ${consultations.status} = 'in_progress'
      AND (${doctors.status} IS NOT 'active' OR ${consultations.startedAt} <= ${now.getTime() - STRANDED_AFTER_MS}))`;
  const moved = await db
    .update(escrows)
    .set({ status: "in_review", reviewReason: "doctor_gone", updatedAt: now })
    .where(and(eq(escrows.status, "held"), stranded))
    .returning({ consultationId: escrows.consultationId });
  return moved.length;
}
