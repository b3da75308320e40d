// The one place that changes a consultation's status (a test fails if any other file writes it).
// A move is planned by the domain's state machine and applied as one conditional UPDATE: of any number
// of callers racing, only the one whose update still finds the expected status moves it. The rows that
// belong to the move (a chat row, an audit entry) go in the same batch and are written only by the
// call that made the move: each move stamps its own `last_move_id`, which they are selected by.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

import { chats, consultations } from "~/db/schema";
import {
  type Actor,
  type ConsultationCreation,
  type ConsultationMove,
  planCreation,
  planTransition,
  type TransitionRefusal,
  type TransitionRules,
} from "~/domain/consultation-status";
import { type AuditAction, auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";

export type ConsultationRow = typeof consultations.$inferSelect;

export type MoveOutcome =
  | { ok: true; consultation: ConsultationRow; before: ConsultationRow }
  | { ok: false; reason: "not_found" | TransitionRefusal | "lost_race"; before?: ConsultationRow };

/** Selects the consultation only if it was moved by the call whose move id this is. */
export type MovedByThisCall = SQL | undefined;

interface Move {
  consultationId: string;
  move: ConsultationMove;
  actor: Actor;
  now: Date;
  /** The deployment's rules (the payment window), when the move needs them. */
  rules?: TransitionRules;
  /** Columns the move writes besides those the state machine sets (a submit's words, a decline's reason). */
  alsoSet?: Partial<
    Pick<
      ConsultationRow,
      | "title"
      | "mainConcern"
      | "medicalHistory"
      | "additionalComments"
      | "requestedDoctorCode"
      | "priority"
      | "createdAt"
      | "declineReason"
      | "declineNote"
      | "observations"
      | "diagnosis"
      | "treatmentPlan"
      | "newPhotosDueAt"
      | "followUpOfId"
      | "reservedForDoctorId"
      | "reservedUntil"
    >
  >;
  /** A further condition the move needs, checked in the same statement (a cap that must hold under races). */
  onlyIf?: SQL;
  /** Rows written with the move, only if this call made it (see the helpers below). */
  alsoWrite?: (db: Database, moved: MovedByThisCall) => Array<BatchItem<"sqlite">>;
}

export async function moveConsultation(
  db: Database,
  { consultationId, move, actor, now, rules, alsoSet = {}, onlyIf, alsoWrite }: Move,
): Promise<MoveOutcome> {
  const before = await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) });
  if (!before) return { ok: false, reason: "not_found" };
  const plan = planTransition(before, move, actor, now, rules);
  if (!plan.ok) return { ok: false, reason: plan.refusal, before };
  const moveId = crypto.randomUUID();
  const moved = and(eq(consultations.id, consultationId), eq(consultations.lastMoveId, moveId));
  const [updated] = await db.batch([
    db
      .update(consultations)
      .set({ ...alsoSet, ...plan.changes, lastMoveId: moveId })
      .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from), onlyIf))
      .returning(),
    ...(alsoWrite?.(db, moved) ?? []),
  ]);
  const consultation = updated[0];
  return consultation ? { ok: true, consultation, before } : { ok: false, reason: "lost_race", before };
}

type CreatedColumns = Omit<typeof consultations.$inferInsert, "id" | "patientId" | "status" | "createdAt" | "updatedAt" | "lastMoveId">;

export type CreationOutcome = { ok: true; consultationId: string } | { ok: false; reason: "not_permitted" | "not_created" };

/**
 * Creates a consultation, the first move: planned by the state machine and inserted with the rows that
 * belong to it in one batch. `onlyIf` is checked in the insert itself (a cap that must hold under
 * races); an insert that `onlyIf` or a unique key stops writes nothing, and neither do its rows.
 */
export async function createConsultation(
  db: Database,
  {
    creation,
    patientId,
    actor,
    now,
    values = {},
    onlyIf,
    alsoWrite,
  }: {
    creation: ConsultationCreation;
    patientId: string;
    actor: Actor;
    now: Date;
    values?: CreatedColumns;
    onlyIf?: SQL;
    alsoWrite?: (db: Database, moved: MovedByThisCall) => Array<BatchItem<"sqlite">>;
  },
): Promise<CreationOutcome> {
  const plan = planCreation(creation, patientId, actor, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal };
  const id = crypto.randomUUID();
  const moveId = crypto.randomUUID();
  const moved = and(eq(consultations.id, id), eq(consultations.lastMoveId, moveId));
  const row: Partial<typeof consultations.$inferInsert> = { ...values, ...plan.changes, id, patientId, lastMoveId: moveId };
  const insert = insertWhere(db, consultations, row as typeof consultations.$inferInsert, onlyIf);
  const [inserted] = await db.batch([insert, ...(alsoWrite?.(db, moved) ?? [])]);
  return inserted.meta.changes === 1 ? { ok: true, consultationId: id } : { ok: false, reason: "not_created" };
}

/** The condition for rows of other tables in the move's batch (its tidings, its money): this call made the move. */
export function onlyIfMoved(moved: MovedByThisCall): SQL {
  return sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${moved})`;
}

/** An audit entry for the move, written only by the call that made it. */
export function auditOfMove(
  db: Database,
  moved: MovedByThisCall,
  entry: { actorId: string | null; action: AuditAction; ipAddress: string | null; now: Date; details?: SQL<string> },
) {
  return auditIfChanged(db, consultations, moved, { ...entry, targetType: "consultation", targetId: consultations.id });
}

/** The consultation's chat row, opened for its doctor by an accept, written only by the call that made it. */
export function chatOfMove(db: Database, moved: MovedByThisCall, doctorId: string, now: Date) {
  return db
    .insert(chats)
    .select(
      db
        .select({
          consultationId: consultations.id,
          doctorId: sql<string>`${doctorId}`.as("doctor_id"),
          patientId: consultations.patientId,
          status: sql<"active">`'active'`.as("status"),
          createdAt: sql<Date>`${now.getTime()}`.as("created_at"),
        })
        .from(consultations)
        .where(moved),
    )
    .onConflictDoUpdate({ target: chats.consultationId, set: { doctorId, status: "active" } });
}
