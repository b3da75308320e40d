// Disputes (docs/decisions/0028): within 72 hours of the end a patient may dispute a consultation's
// charge, which freezes its escrow; the doctor may answer once; an admin decides (release to the
// doctor, refund it all, or refund part) with a note both sides read. Each step is one batch: the
// conditional update that only one caller can win, the rows it causes (the ledger's entries, the
// refund to ask of the provider, the audit entry, both sides' notifications and emails), written only
// by the call that won.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { aliasedTable, and, asc, desc, eq, type SQL, sql } from "drizzle-orm";

import { consultations, disputes, escrows, ledgerLines, profiles, users } from "~/db/schema";
import { DISPUTE_MOVES, type DisputeResolution, resolutionAmounts } from "~/domain/disputes";
import { DISPUTE_WINDOW_MS } from "~/domain/escrow";
import { escrowReleased } from "~/domain/ledger";
import { birrText, santimFromSum } from "~/domain/money";
import { consultationLink } from "~/domain/notifications";
import { assertMove } from "~/domain/status-moves";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { profileName } from "~/server/db/profiles.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "~/server/tidings.server";

import { escrowMove } from "./escrow.server";
import { ledgerEntryStatements } from "./ledger.server";
import { attemptRefund, refundStatements } from "./refunds.server";

export type DisputeRow = typeof disputes.$inferSelect;
type DisputeStatus = DisputeRow["status"];

export async function disputeOf(db: Database, consultationId: string): Promise<DisputeRow | null> {
  return (await db.query.disputes.findFirst({ where: eq(disputes.consultationId, consultationId) })) ?? null;
}

export type OpenDisputeRefusal = "not_found" | "not_ended" | "window_closed" | "not_held";

/** The patient disputes their ended consultation: its escrow is frozen and the doctor is told. */
/** Why `patientId` cannot dispute this consultation now (whatever the form says), or null if they can. */
export async function openDisputeRefusal(
  db: Database,
  patientId: string,
  consultationId: string,
  now: Date,
): Promise<OpenDisputeRefusal | null> {
  const consultation = await findConsultationById(db, consultationId);
  if (!consultation || consultation.patientId !== patientId) return "not_found";
  const escrow = await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) });
  if (!escrow) return "not_found";
  if (consultation.status !== "completed" || !consultation.completedAt) return "not_ended";
  if (now.getTime() >= consultation.completedAt.getTime() + DISPUTE_WINDOW_MS) return "window_closed";
  if (escrow.status !== "held") return "not_held";
  return null;
}

export async function openDispute(
  { db, config }: { db: Database; config: AppConfig },
  patientId: string,
  consultationId: string,
  form: { reason: DisputeRow["reason"]; words: string },
  now: Date,
  request?: AppLoadContext,
): Promise<{ ok: true } | { ok: false; reason: OpenDisputeRefusal }> {
  const refusal = await openDisputeRefusal(db, patientId, consultationId, now);
  if (refusal) return { ok: false, reason: refusal };
  const consultation = (await findConsultationById(db, consultationId))!;
  const escrow = (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;

  const changeId = crypto.randomUUID();
  const frozenByThisCall = and(eq(escrows.consultationId, consultationId), eq(escrows.lastChangeId, changeId));
  const frozen = sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${frozenByThisCall})`;
  const link = consultationLink("doctor", consultationId);
  const told = await tidingsFor(db, escrow.doctorId, { kind: "dispute_opened", consultationId, link }, (t, to) =>
    moneyEmail(
      t,
      to,
      "disputeOpened",
      { title: consultation.title, reason: t(`disputes.reasons.${form.reason}`), words: form.words },
      `${config.siteOrigin}${link}`,
    ),
  );
  const tidings = tidingsStatements(db, [told], now, frozen);
  // Still within the window as the batch runs: the scheduled release, at the boundary, cannot also win.
  const stillOpen = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${consultationId} AND ${consultations.status} = 'completed' AND ${consultations.completedAt} > ${now.getTime() - DISPUTE_WINDOW_MS})`;
  const [changed] = await db.batch([
    escrowMove(db, {
      from: "held",
      to: "disputed",
      where: and(eq(escrows.consultationId, consultationId), stillOpen),
      set: { lastChangeId: changeId },
      now,
    }).returning({ consultationId: escrows.consultationId }),
    insertWhere(
      db,
      disputes,
      {
        consultationId,
        patientId,
        doctorId: escrow.doctorId,
        reason: form.reason,
        patientWords: form.words,
        status: "open",
        createdAt: now,
        updatedAt: now,
      },
      frozen,
    ),
    auditIfChanged(db, escrows, frozenByThisCall, {
      action: "dispute.opened",
      actorId: patientId,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reason', ${form.reason})`,
      now,
    }),
    ...tidings.statements,
  ]);
  if (changed.length !== 1) {
    const after = await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) });
    return { ok: false, reason: after?.status === "held" ? "window_closed" : "not_held" };
  }
  await deliverTidings(db, config, tidings, request);
  return { ok: true };
}

export type AnswerRefusal = "not_found" | "already_answered" | "resolved";

/** The consultation's doctor answers the dispute, once; the patient is told. */
/** Why `doctorId` cannot answer a dispute of this consultation (whatever the form says), or null if they can. */
export async function answerDisputeRefusal(db: Database, doctorId: string, consultationId: string): Promise<AnswerRefusal | null> {
  const dispute = await disputeOf(db, consultationId);
  if (!dispute || dispute.doctorId !== doctorId) return "not_found";
  if (dispute.status !== "open") return "resolved";
  if (dispute.doctorAnswer !== null) return "already_answered";
  return null;
}

export async function answerDispute(
  { db, config }: { db: Database; config: AppConfig },
  doctorId: string,
  consultationId: string,
  answer: string,
  now: Date,
  request?: AppLoadContext,
): Promise<{ ok: true } | { ok: false; reason: AnswerRefusal }> {
  const refusal = await answerDisputeRefusal(db, doctorId, consultationId);
  if (refusal) return { ok: false, reason: refusal };
  const dispute = (await disputeOf(db, consultationId))!;
  const consultation = await findConsultationById(db, consultationId);
  const changeId = crypto.randomUUID();
  const answeredByThisCall = and(eq(disputes.id, dispute.id), eq(disputes.lastChangeId, changeId));
  const link = consultationLink("patient", consultationId);
  const doctor = await profileName(db, doctorId);
  const told = await tidingsFor(db, dispute.patientId, { kind: "dispute_answered", consultationId, link }, (t, to) =>
    moneyEmail(
      t,
      to,
      "disputeAnswered",
      { name: doctor?.firstName ?? "", title: consultation?.title ?? "", answer },
      `${config.siteOrigin}${link}`,
    ),
  );
  const tidings = tidingsStatements(db, [told], now, sql`EXISTS (SELECT 1 FROM ${disputes} WHERE ${answeredByThisCall})`);
  const [changed] = await db.batch([
    db
      .update(disputes)
      .set({ doctorAnswer: answer, doctorAnsweredAt: now, lastChangeId: changeId, updatedAt: now })
      .where(and(eq(disputes.id, dispute.id), eq(disputes.status, "open"), sql`${disputes.doctorAnswer} IS NULL`))
      .returning({ id: disputes.id }),
    auditIfChanged(db, disputes, answeredByThisCall, {
      action: "dispute.answered",
      actorId: doctorId,
      targetType: "consultation",
      targetId: disputes.consultationId,
      ipAddress: null,
      now,
    }),
    ...tidings.statements,
  ]);
  if (changed.length !== 1) {
    const after = await disputeOf(db, consultationId);
    return { ok: false, reason: after?.status === "resolved" ? "resolved" : "already_answered" };
  }
  await deliverTidings(db, config, tidings, request);
  return { ok: true };
}

/**
 * The one way a dispute's status changes (docs/decisions/0046): the conditional UPDATE of dispute `id`
 * while it is still `from` (and `onlyIf` holds, when given), to `to`, checked against DISPUTE_MOVES
 * before it is built.
 */
function disputeMove(
  db: Database,
  move: {
    id: string;
    from: DisputeStatus;
    to: DisputeStatus;
    set: Omit<Partial<DisputeRow>, "id" | "status" | "updatedAt">;
    now: Date;
    onlyIf?: SQL;
  },
) {
  assertMove("disputes", DISPUTE_MOVES, [move.from], move.to);
  return db
    .update(disputes)
    .set({ ...move.set, status: move.to, updatedAt: move.now })
    .where(and(eq(disputes.id, move.id), eq(disputes.status, move.from), move.onlyIf));
}

type ResolveRefusal = "not_found" | "already_resolved";

/**
 * What a consultation's escrow holds for its payment, in santim: the ledger's escrow balance for it (kept
 * as a credit), never more than that payment (a late payment's money waiting there for its own refund is
 * not this payment's to give); nothing once it is no longer disputed (charged back while the dispute was
 * open: the provider took its money, and what is left there is a late payment's).
 */
const heldInEscrow = sql<number>`CASE WHEN ${escrows.status} = 'disputed' THEN min(${escrows.amountSantim}, coalesce((SELECT -sum(${ledgerLines.amountSantim}) FROM ${ledgerLines} WHERE ${ledgerLines.account} = 'escrow' AND ${ledgerLines.subject} = ${escrows.consultationId}), 0)) ELSE 0 END`;

type ResolveOutcome = { ok: true } | { ok: false; reason: ResolveRefusal } | { ok: false; reason: "part_not_held"; heldSantim: number };

/** How many times a decision is made again on what the escrow holds now, should it move while deciding. */
const RESOLVE_TRIES = 3;

/**
 * An admin decides an open dispute. In one batch, only for the admin whose decision took: the dispute
 * resolved with the note, the escrow released (all or the rest) and/or a refund recorded (its amount
 * out of escrow), audited, both sides told. The refund is then asked of the provider. The amounts are
 * what the escrow held when read: should it move before the batch (a chargeback took its money), the
 * batch writes nothing and the decision is made again on what it holds now, as if it had come after.
 */
export async function resolveDispute(
  env: Env,
  context: { db: Database; config: AppConfig },
  adminId: string,
  disputeId: string,
  decision: { resolution: DisputeResolution; refundPartSantim: number | null; note: string },
  now: Date,
  request?: AppLoadContext,
): Promise<ResolveOutcome> {
  for (let tries = 1; ; tries++) {
    const outcome = await resolveOnce(env, context, adminId, disputeId, decision, now, request);
    if (outcome !== "escrow_moved") return outcome;
    if (tries >= RESOLVE_TRIES) return { ok: false, reason: "already_resolved" };
  }
}

async function resolveOnce(
  env: Env,
  { db, config }: { db: Database; config: AppConfig },
  adminId: string,
  disputeId: string,
  decision: { resolution: DisputeResolution; refundPartSantim: number | null; note: string },
  now: Date,
  request?: AppLoadContext,
): Promise<ResolveOutcome | "escrow_moved"> {
  const dispute = await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId) });
  if (!dispute) return { ok: false, reason: "not_found" };
  if (dispute.status !== "open") return { ok: false, reason: "already_resolved" };
  const [held] = await db
    .select({ escrow: escrows, heldSantim: heldInEscrow })
    .from(escrows)
    .where(eq(escrows.consultationId, dispute.consultationId));
  const consultation = await findConsultationById(db, dispute.consultationId);
  if (!held || !consultation) return { ok: false, reason: "not_found" };
  const { escrow } = held;
  const heldSantim = santimFromSum(held.heldSantim);
  const amounts = resolutionAmounts(decision.resolution, heldSantim, decision.refundPartSantim);
  if (!amounts) return { ok: false, reason: "part_not_held", heldSantim };
  const { refundSantim, releaseSantim } = amounts;

  const changeId = crypto.randomUUID();
  // Decided only while the escrow is as read: its status moves whenever its money does (a chargeback).
  const escrowAsRead = sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${escrows.consultationId} = ${dispute.consultationId} AND ${escrows.status} = ${escrow.status})`;
  const decidedByThisCall = and(eq(disputes.id, disputeId), eq(disputes.lastChangeId, changeId));
  const decided = sql`EXISTS (SELECT 1 FROM ${disputes} WHERE ${decidedByThisCall})`;
  const values = {
    title: consultation.title,
    note: decision.note,
    refund: birrText(refundSantim),
    release: birrText(releaseSantim),
  };
  const bodyKey = decision.resolution === "release" ? "email.disputeResolved.release" : "email.disputeResolved.refund";
  const tell = async (userId: string, role: "patient" | "doctor") => {
    const link = consultationLink(role, dispute.consultationId);
    return tidingsFor(db, userId, { kind: "dispute_resolved", consultationId: dispute.consultationId, link }, (t, to) =>
      moneyEmail(t, to, "disputeResolved", values, `${config.siteOrigin}${link}`, bodyKey),
    );
  };
  const tidings = tidingsStatements(db, [await tell(dispute.patientId, "patient"), await tell(dispute.doctorId, "doctor")], now, decided);
  const refund =
    refundSantim > 0
      ? refundStatements(
          db,
          {
            paymentId: escrow.paymentId,
            consultationId: dispute.consultationId,
            amountSantim: refundSantim,
            reason: "dispute",
            requestedBy: adminId,
          },
          now,
          decided,
        )
      : null;
  const [changed] = await db.batch([
    disputeMove(db, {
      id: disputeId,
      from: "open",
      to: "resolved",
      set: {
        resolution: decision.resolution,
        refundSantim,
        resolutionNote: decision.note,
        resolvedBy: adminId,
        resolvedAt: now,
        lastChangeId: changeId,
      },
      now,
      onlyIf: escrowAsRead,
    }).returning({ id: disputes.id }),
    escrowMove(db, {
      from: "disputed",
      to: releaseSantim > 0 ? "released" : "refunded",
      where: and(eq(escrows.consultationId, dispute.consultationId), decided),
      set: releaseSantim > 0 ? { releasedAt: now, lastChangeId: changeId } : { lastChangeId: changeId },
      now,
    }),
    ...(releaseSantim > 0
      ? ledgerEntryStatements(
          db,
          escrowReleased({ consultationId: dispute.consultationId, doctorId: escrow.doctorId, amountSantim: releaseSantim }),
          now,
          decided,
        )
      : []),
    ...(refund?.statements ?? []),
    auditIfChanged(db, disputes, decidedByThisCall, {
      action: "dispute.resolved",
      actorId: adminId,
      targetType: "consultation",
      targetId: disputes.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('resolution', ${decision.resolution}, 'refundSantim', ${refundSantim})`,
      now,
    }),
    ...tidings.statements,
  ]);
  if (changed.length !== 1) {
    const after = await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId), columns: { status: true } });
    return after?.status === "open" ? "escrow_moved" : { ok: false, reason: "already_resolved" };
  }
  await deliverTidings(db, config, tidings, request);
  if (refund) await attemptRefund(env, config, refund.refundId, now);
  await tellTimelineMoved(env, dispute.consultationId);
  return { ok: true };
}

/** How many disputes the admins' page shows of each kind. */
const DISPUTES_SHOWN = 50;

/** The admins' queue: open disputes oldest first, then the latest decided; with both sides' names. */
export async function disputesForAdmins(db: Database) {
  const patient = aliasedTable(profiles, "patient_profile");
  const doctor = aliasedTable(profiles, "doctor_profile");
  const query = (open: boolean) =>
    db
      .select({
        dispute: disputes,
        title: consultations.title,
        amountSantim: escrows.amountSantim,
        heldSantim: heldInEscrow,
        patientFirstName: patient.firstName,
        patientLastName: patient.lastName,
        patientClosedAt: users.closedAt,
        doctorName: sql<string>`trim(coalesce(${doctor.firstName}, '') || ' ' || coalesce(${doctor.lastName}, ''))`,
      })
      .from(disputes)
      .innerJoin(consultations, eq(consultations.id, disputes.consultationId))
      .innerJoin(escrows, eq(escrows.consultationId, disputes.consultationId))
      .leftJoin(patient, eq(patient.userId, disputes.patientId))
      .leftJoin(users, eq(users.id, disputes.patientId))
      .leftJoin(doctor, eq(doctor.userId, disputes.doctorId))
      .where(eq(disputes.status, open ? "open" : "resolved"))
      .orderBy(open ? asc(disputes.createdAt) : desc(disputes.resolvedAt))
      .limit(DISPUTES_SHOWN);
  const [open, decided] = await Promise.all([query(true), query(false)]);
  return { open, decided };
}
