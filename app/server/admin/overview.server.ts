// The figures of /admin/overview, read from D1. Each is one indexed query, aggregated by SQLite; the
// medians read one or two rows of a sorted column (`medianWindow`), so nothing here loads a table into
// the Worker, whatever it holds.
import { and, avg, count, eq, gte, isNotNull, isNull, type SQL, sql, sum } from "drizzle-orm";

import { consultations, patientFeedback, payments, refunds } from "~/db/schema";
import { dailySeries, DAY_MS, ethiopianDayNumber, medianFromWindow, medianWindow, rate, startOfEthiopianDay } from "~/domain/admin-figures";
import { CONSULTATION_STATUSES, type ConsultationStatus } from "~/domain/consultation-status";
import type { Database } from "~/server/db/client.server";

/** How many days the "new consultations per day" chart covers. */
const CHART_DAYS = 30;

/** A payment that came in too late and whose money has not been sent back yet (by the provider, or outside it). */
export const awaitingRefund = and(
  eq(payments.status, "paid_after_expiry"),
  isNull(payments.refundedAt),
  sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.paymentId} = ${payments.id} AND ${refunds.status} = 'succeeded')`,
)!;

/** The median of `value` over the rows `where` selects, in ms; null when there are none. */
async function medianMs(db: Database, value: SQL<number>, where: SQL) {
  const [counted] = await db.select({ rows: count() }).from(consultations).where(where);
  const window = medianWindow(counted?.rows ?? 0);
  if (!window) return null;
  const middle = await db.select({ value }).from(consultations).where(where).orderBy(value).limit(window.limit).offset(window.offset);
  return medianFromWindow(middle.map((row) => Number(row.value)));
}

async function consultationsByStatus(db: Database) {
  const rows = await db.select({ status: consultations.status, total: count() }).from(consultations).groupBy(consultations.status);
  const totals = new Map(rows.map((row) => [row.status, row.total]));
  return CONSULTATION_STATUSES.map((status) => ({ status, total: totals.get(status) ?? 0 }));
}

async function newConsultations(db: Database, now: Date) {
  const since = (days: number) => now.getTime() - days * DAY_MS;
  const createdSince = (days: number) => sql<number>`coalesce(sum(${consultations.createdAt} >= ${since(days)}), 0)`;
  const [row] = await db
    .select({ day: createdSince(1), week: createdSince(7), month: createdSince(30) })
    .from(consultations)
    .where(gte(consultations.createdAt, new Date(since(30))));
  return { lastDay: Number(row?.day ?? 0), last7Days: Number(row?.week ?? 0), last30Days: Number(row?.month ?? 0) };
}

/** New consultations per Ethiopian day for the chart, oldest first (today last). */
async function newPerDay(db: Database, now: Date) {
  const today = ethiopianDayNumber(now.getTime());
  const firstDay = today - CHART_DAYS + 1;
  const dayOf = sql<number>`(${consultations.createdAt} + 10800000) / 86400000`;
  const rows = await db
    .select({ day: dayOf, total: count() })
    .from(consultations)
    .where(gte(consultations.createdAt, new Date(startOfEthiopianDay(firstDay))))
    .groupBy(dayOf);
  return dailySeries(
    rows.map((row) => ({ day: Number(row.day), total: row.total })),
    today,
    CHART_DAYS,
  ).map((entry) => ({ date: new Date(startOfEthiopianDay(entry.day)).toISOString(), total: entry.total }));
}

async function ratings(db: Database) {
  const [row] = await db.select({ average: avg(patientFeedback.rating), total: count() }).from(patientFeedback);
  return { average: row?.average === null || row?.average === undefined ? null : Number(row.average), count: row?.total ?? 0 };
}

async function paymentFigures(db: Database) {
  const [received] = await db
    .select({ total: count(), santim: sum(payments.amountSantim) })
    .from(payments)
    .where(eq(payments.status, "paid"));
  const [late] = await db
    .select({ total: count(), santim: sum(payments.amountSantim) })
    .from(payments)
    .where(awaitingRefund);
  return {
    received: { count: received?.total ?? 0, santim: Number(received?.santim ?? 0) },
    awaitingRefund: { count: late?.total ?? 0, santim: Number(late?.santim ?? 0) },
  };
}

export async function overviewFigures(db: Database, now: Date) {
  const [byStatus, created, perDay, rating, money, toAccept, toPay] = await Promise.all([
    consultationsByStatus(db),
    newConsultations(db, now),
    newPerDay(db, now),
    ratings(db),
    paymentFigures(db),
    medianMs(db, sql<number>`${consultations.acceptedAt} - ${consultations.createdAt}`, isNotNull(consultations.acceptedAt)),
    medianMs(
      db,
      sql<number>`${consultations.startedAt} - ${consultations.acceptedAt}`,
      and(isNotNull(consultations.startedAt), isNotNull(consultations.acceptedAt))!,
    ),
  ]);
  const of = (status: ConsultationStatus) => byStatus.find((row) => row.status === status)?.total ?? 0;
  const finished = of("completed") + of("cancelled");
  return {
    byStatus,
    total: byStatus.reduce((sum, row) => sum + row.total, 0),
    created,
    perDay,
    medianToAcceptMs: toAccept,
    medianToPaymentMs: toPay,
    /** Of the consultations that have ended, the share that ended completed (not cancelled). */
    completion: { rate: rate(of("completed"), finished), completed: of("completed"), finished },
    rating,
    payments: money,
  };
}
