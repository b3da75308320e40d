// The lists and figures of the dashboards. Every query is scoped to its reader in the WHERE clause.
import { and, count, desc, eq, gte, inArray, lt, or, type SQL } from "drizzle-orm";

import { consultations, profiles, users } from "~/db/schema";
import { RECENT_CHAT_WINDOW_MS } from "~/domain/constants";
import { ACTIVE_STATUSES, type ConsultationStatus, type Priority, SUBMITTED_STATUSES } from "~/domain/consultation-status";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

const listColumns = {
  id: consultations.id,
  title: consultations.title,
  status: consultations.status,
  priority: consultations.priority,
  createdAt: consultations.createdAt,
  updatedAt: consultations.updatedAt,
  completedAt: consultations.completedAt,
  cancelledAt: consultations.cancelledAt,
  paymentDeadlineAt: consultations.paymentDeadlineAt,
  declineReason: consultations.declineReason,
  declineNote: consultations.declineNote,
  diagnosis: consultations.diagnosis,
  patientId: consultations.patientId,
  doctorId: consultations.doctorId,
};

/** A patient's consultations (drafts left out), newest first. */
export async function patientConsultations(db: Database, patientId: string) {
  return db
    .select({ ...listColumns, doctorFirstName: profiles.firstName })
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.doctorId))
    .where(and(eq(consultations.patientId, patientId), inArray(consultations.status, SUBMITTED_STATUSES)))
    .orderBy(desc(consultations.createdAt));
}

/** The patient's most recent chat: in progress and active within the last 7 days. */
export async function mostRecentChat(db: Database, patientId: string, now: Date) {
  const [recent] = await db
    .select({ ...listColumns, doctorFirstName: profiles.firstName })
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.doctorId))
    .where(
      and(
        eq(consultations.patientId, patientId),
        eq(consultations.status, "in_progress"),
        gte(consultations.updatedAt, new Date(now.getTime() - RECENT_CHAT_WINDOW_MS)),
      ),
    )
    .orderBy(desc(consultations.updatedAt))
    .limit(1);
  return recent ?? null;
}

export interface DoctorListFilter {
  search?: string;
  status?: ConsultationStatus;
  priority?: Priority;
  /** Inclusive day range on the creation date. */
  from?: Date;
  to?: Date;
}

/** The doctor's own consultations with the patient's name, filtered as the reader asked. */
export async function doctorConsultations(db: Database, doctorId: string, filter: DoctorListFilter = {}) {
  const conditions: SQL[] = [eq(consultations.doctorId, doctorId)];
  if (filter.status) conditions.push(eq(consultations.status, filter.status));
  if (filter.priority) conditions.push(eq(consultations.priority, filter.priority));
  if (filter.from) conditions.push(gte(consultations.createdAt, filter.from));
  if (filter.to) conditions.push(lt(consultations.createdAt, new Date(filter.to.getTime() + 24 * 60 * 60_000)));
  if (filter.search) {
    const search = filter.search;
    conditions.push(
      or(...[consultations.title, profiles.firstName, profiles.lastName, users.email].map((column) => contains(column, search)))!,
    );
  }
  return db
    .select({
      ...listColumns,
      patientFirstName: profiles.firstName,
      patientLastName: profiles.lastName,
      patientEmail: users.email,
      patientClosedAt: users.closedAt,
    })
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .leftJoin(users, eq(users.id, consultations.patientId))
    .where(and(...conditions))
    .orderBy(desc(consultations.createdAt));
}

/** Totals for the doctor's dashboard: all theirs, active now, completed (all time and today). */
export async function doctorFigures(db: Database, doctorId: string, startOfToday: Date) {
  const byStatus = await db
    .select({ status: consultations.status, total: count() })
    .from(consultations)
    .where(eq(consultations.doctorId, doctorId))
    .groupBy(consultations.status);
  const [today] = await db
    .select({ total: count() })
    .from(consultations)
    .where(and(eq(consultations.doctorId, doctorId), eq(consultations.status, "completed"), gte(consultations.completedAt, startOfToday)));
  const of = (...statuses: ConsultationStatus[]) =>
    byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.total, 0);
  return {
    total: byStatus.reduce((sum, row) => sum + row.total, 0),
    active: of(...ACTIVE_STATUSES),
    completed: of("completed"),
    completedToday: today?.total ?? 0,
  };
}
