// A paid consultation's escrow (docs/decisions/0028): the fee captured into the consultation's escrow
// account when its payment is confirmed, held until the patient confirms or the hold falls due, then
// released to the doctor's payable and the platform's revenue, exactly once.
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";

import { consultations, doctors, escrows, roomConnections } from "~/db/schema";
import type { ConsultationStatus } from "~/domain/consultation-status";
import { ESCROW_MOVES, type EscrowStatus, releaseAllowedSql, type ReleaseRefusal, releaseRefusal } from "~/domain/escrow";
import { escrowReleased, paymentCaptured } from "~/domain/ledger";
import { platformShareSql } from "~/domain/money";
import { assertMove } from "~/domain/status-moves";
import { ROOMS } from "~/realtime/protocol";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { noticesForEach, tidingsStatements } from "~/server/tidings.server";

import { ledgerEntryPerRowStatements, ledgerEntryStatements } from "./ledger.server";

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

/** What an escrow's move writes besides its status (which the move names) and its update time. */
type EscrowMoveColumns = Pick<Partial<EscrowRow>, "reviewReason" | "confirmedAt" | "releasedAt" | "lastChangeId">;

/**
 * The one way an escrow's status changes (docs/decisions/0046): the conditional UPDATE of the escrows
 * `where` selects that are still in a `from` status, to `to`, checked against ESCROW_MOVES before it is
 * built. Every module that moves an escrow (a dispute, a cancelling, a chargeback) builds it here.
 */
export function escrowMove(
  db: Database,
  move: { from: EscrowStatus | ReadonlyArray<EscrowStatus>; to: EscrowStatus; where: SQL | undefined; set?: EscrowMoveColumns; now: Date },
) {
  const from: ReadonlyArray<EscrowStatus> = typeof move.from === "string" ? [move.from] : move.from;
  assertMove("escrows", ESCROW_MOVES, from, move.to);
  return db
    .update(escrows)
    .set({ ...move.set, status: move.to, updatedAt: move.now })
    .where(and(inArray(escrows.status, [...from]), move.where));
}

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
  const stillDue = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${escrow.consultationId} AND ${releaseAllowedSql(
    { status: escrows.status, consultationStatus: consultations.status, completedAt: consultations.completedAt },
    by,
    now,
  )})`;
  return [
    escrowMove(db, {
      from: "held",
      to: "released",
      where: and(eq(escrows.consultationId, escrow.consultationId), stillDue),
      set: { releasedAt: now, confirmedAt: by === "patient" ? now : escrow.confirmedAt, lastChangeId: changeId },
      now,
    }).returning({ consultationId: escrows.consultationId }),
    ...ledgerEntryStatements(
      db,
      escrowReleased({ consultationId: escrow.consultationId, doctorId: escrow.doctorId, amountSantim: escrow.amountSantim }),
      now,
      sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${changedByThisCall})`,
    ),
    // The doctor is told their share is theirs (in the app; the weekly payout's email says it again).
    ...tidingsStatements(
      db,
      [
        {
          userId: escrow.doctorId,
          notice: { kind: "earnings_released", consultationId: escrow.consultationId, link: "/doctor/earnings" },
          mail: null,
        },
      ],
      now,
      sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${changedByThisCall})`,
    ).statements,
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
 * Releases per run of the job: each batch of them is seven statements, so a run takes at most 140 of the
 * 1,000 queries an invocation may make, and leaves the other jobs of the run theirs.
 */
const RELEASES_PER_RUN = 20_000;
/**
 * Releases in one batch: its statements each write a thousand rows (the lines three thousand), about
 * 0.2 s of D1's one thread in bench:settle, so a request that comes meanwhile waits that long at most.
 */
const RELEASES_PER_BATCH = 1_000;
/** Rooms told of a release in one run, and at once: each is a request to a Durable Object. */
const ROOMS_TOLD_PER_RUN = 200;
const ROOMS_TOLD_AT_ONCE = 10;

/**
 * One batch of the scheduled release, set-based: the holds due, up to `size`, stamped with this batch's
 * change id; for each of them, by INSERT … SELECT over that stamp, its ledger entry (the same key, kind
 * and lines as escrowReleased plans, split as splitRelease splits), the doctor's notification and the
 * audit entry; then the holds marked released; last, which of them a live socket watches. The stamp is
 * read while the holds are still `held`, which the status index finds among the few held, not the many
 * released. D1 runs a batch alone, so the stamp and what is conditioned on it cannot interleave.
 */
function releaseBatchStatements(db: Database, size: number, now: Date) {
  const changeId = crypto.randomUUID();
  const due = alias(escrows, "due");
  const stamped = and(eq(escrows.status, "held"), eq(escrows.lastChangeId, changeId))!;
  const platformSantim = platformShareSql(escrows.amountSantim);
  return [
    db
      .update(escrows)
      .set({ lastChangeId: changeId })
      .where(
        inArray(
          escrows.consultationId,
          db
            .select({ consultationId: due.consultationId })
            .from(due)
            // CROSS JOIN keeps this order in SQLite: the few holds still held first (their status
            // index), then each one's consultation, never every completed consultation there ever was.
            .crossJoin(consultations)
            .where(
              and(
                eq(consultations.id, due.consultationId),
                releaseAllowedSql(
                  { status: due.status, consultationStatus: consultations.status, completedAt: consultations.completedAt },
                  "schedule",
                  now,
                ),
              ),
            )
            .orderBy(asc(consultations.completedAt))
            .limit(size),
        ),
      ),
    ...ledgerEntryPerRowStatements(
      db,
      {
        from: escrows,
        where: stamped,
        idempotencyKey: sql<string>`'consultation:' || ${escrows.consultationId} || ':released'`,
        kind: "escrow_released",
        consultationId: escrows.consultationId,
        doctorId: escrows.doctorId,
        paymentId: null,
        lines: [
          { account: "escrow", subject: escrows.consultationId, amountSantim: sql<number>`${escrows.amountSantim}` },
          {
            account: "doctor_payable",
            subject: escrows.doctorId,
            amountSantim: sql<number>`-(${escrows.amountSantim} - ${platformSantim})`,
          },
          { account: "platform_revenue", subject: "", amountSantim: sql<number>`-${platformSantim}` },
        ],
      },
      now,
    ),
    // The doctor is told their share is theirs (in the app; the weekly payout's email says it again).
    noticesForEach(
      db,
      { table: escrows, where: stamped, userId: escrows.doctorId, consultationId: escrows.consultationId },
      { kind: "earnings_released", link: "/doctor/earnings" },
      now,
    ),
    auditIfChanged(db, escrows, stamped, {
      action: "escrow.released",
      actorId: null,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('by', 'schedule', 'amountSantim', ${escrows.amountSantim})`,
      now,
    }),
    escrowMove(db, { from: "held", to: "released", where: eq(escrows.lastChangeId, changeId), set: { releasedAt: now }, now }),
    db
      .selectDistinct({ consultationId: roomConnections.roomName })
      .from(roomConnections)
      .innerJoin(escrows, eq(escrows.consultationId, roomConnections.roomName))
      .where(and(eq(roomConnections.roomClass, ROOMS.consultation.className), eq(escrows.lastChangeId, changeId))),
  ] as const;
}

/**
 * The scheduled release: every hold whose consultation ended 72 hours ago or more, still held (no
 * dispute, no review), released once, a thousand to a batch, oldest first. Two runs at once release each
 * hold once: a batch's stamp takes only holds still held, and the ledger's key could not be taken twice
 * anyway. `onReleased` hears of the released consultations someone could be watching (a live socket in
 * their room), at most ROOMS_TOLD_PER_RUN, a few at a time: nobody else is there to hear it, and a page
 * opened later reads the release from D1 (docs/decisions/0044).
 */
export async function releaseDueEscrows(
  db: Database,
  now: Date,
  { limit = RELEASES_PER_RUN, onReleased }: { limit?: number; onReleased?: (consultationId: string) => Promise<void> } = {},
): Promise<number> {
  let released = 0;
  const watched = new Set<string>();
  while (released < limit) {
    const size = Math.min(RELEASES_PER_BATCH, limit - released);
    const results = await db.batch(releaseBatchStatements(db, size, now));
    // The batch ends with the holds marked released and the watched ones among them.
    const releasedNow = (results.at(-2) as D1Result).meta.changes;
    released += releasedNow;
    for (const { consultationId } of results.at(-1) as Array<{ consultationId: string }>) watched.add(consultationId);
    if (releasedNow < size) break;
  }
  const toTell = [...watched].slice(0, ROOMS_TOLD_PER_RUN);
  for (let start = 0; start < toTell.length; start += ROOMS_TOLD_AT_ONCE) {
    await Promise.all(toTell.slice(start, start + ROOMS_TOLD_AT_ONCE).map((consultationId) => onReleased?.(consultationId)));
  }
  return released;
}

/** A consultation under way this long after its payment has been left by its doctor, for an admin to look at. */
const STRANDED_AFTER_MS = 7 * 24 * 60 * 60_000;

/**
 * The job: a paid consultation whose doctor can no longer finish it (deactivated, or still not ended a
 * week after payment) has its escrow sent to review, so it is neither released nor forgotten: admins
 * see it on /admin/finance and may cancel it, which refunds the patient; the patient reads that it is
 * under review. Should the doctor end it after all, it is held again (reviewEndedOfMove). Each escrow
 * sent is audited, in the same batch, only by the run that sent it. Safe to run twice: only a hold
 * still `held` changes.
 */
export async function sendStrandedEscrowsToReview(db: Database, now: Date): Promise<number> {
  const changeId = crypto.randomUUID();
  const stranded = sql`${escrows.consultationId} IN (
    SELECT ${consultations.id} FROM ${consultations}
    LEFT JOIN ${doctors} ON ${doctors.userId} = ${consultations.doctorId}
    WHERE ${consultations.status} = 'in_progress'
      AND (${doctors.status} IS NOT 'active' OR ${consultations.startedAt} <= ${now.getTime() - STRANDED_AFTER_MS}))`;
  const [moved] = await db.batch([
    escrowMove(db, {
      from: "held",
      to: "in_review",
      where: stranded,
      set: { reviewReason: "doctor_gone", lastChangeId: changeId },
      now,
    }).returning({
      consultationId: escrows.consultationId,
    }),
    auditIfChanged(db, escrows, and(eq(escrows.status, "in_review"), eq(escrows.lastChangeId, changeId)), {
      action: "escrow.sent_to_review",
      actorId: null,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('amountSantim', ${escrows.amountSantim})`,
      now,
    }),
  ]);
  return moved.length;
}

/**
 * The statements that end a review when the doctor ends its consultation after all (the move selected by
 * `moved`, which this call made): its escrow held again, on the normal path from the end (the patient may
 * confirm or dispute; the job releases it 72 hours on), audited, only by this call.
 */
export function reviewEndedOfMove(db: Database, moved: SQL | undefined, actorId: string, now: Date): Array<BatchItem<"sqlite">> {
  const changeId = crypto.randomUUID();
  return [
    escrowMove(db, {
      from: "in_review",
      to: "held",
      where: sql`${escrows.consultationId} IN (SELECT ${consultations.id} FROM ${consultations} WHERE ${moved})`,
      set: { reviewReason: null, lastChangeId: changeId },
      now,
    }),
    auditIfChanged(db, escrows, and(eq(escrows.status, "held"), eq(escrows.lastChangeId, changeId)), {
      action: "escrow.review_ended",
      actorId,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('amountSantim', ${escrows.amountSantim})`,
      now,
    }),
  ];
}
