// The one writer of the money ledger (docs/decisions/0028). An entry is planned by the domain
// (app/domain/ledger.ts: lines that sum to zero, an idempotency key per event) and written here as
// statements for the caller's own D1 batch, beside the state change it records: written only where
// `onlyIf` holds when the batch runs (the change this call made) and only once per key, so a replayed
// webhook or a second job finds the key taken and writes nothing. Nothing updates or deletes an entry
// (the database's triggers refuse it).
import { and, eq, type SQL, sql, type SQLWrapper, sum } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

import { ledgerEntries, ledgerLines } from "~/db/schema";
import { type LedgerAccount, type LedgerEntry, ledgerEntryRefusal, ledgerEntryRows } from "~/domain/ledger";
import { santimFromSum } from "~/domain/money";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { randomUuidSql } from "~/server/db/random-uuid-sql.server";

/** Statements that write `entry` in the caller's batch, if `onlyIf` holds then and its key is not yet taken. */
export function ledgerEntryStatements(db: Database, entry: LedgerEntry, now: Date, onlyIf?: SQL): Array<BatchItem<"sqlite">> {
  const refusal = ledgerEntryRefusal(entry);
  if (refusal) throw new Error(`ledger entry ${entry.idempotencyKey} refused: ${refusal}`);
  const entryId = crypto.randomUUID();
  const rows = ledgerEntryRows(entry, entryId, now);
  const written = sql`EXISTS (SELECT 1 FROM ${ledgerEntries} WHERE ${ledgerEntries.id} = ${entryId})`;
  return [
    insertWhere(db, ledgerEntries, rows.entry, onlyIf),
    // The lines only with the entry this call wrote: a key already taken writes none.
    ...rows.lines.map((line) => insertWhere(db, ledgerLines, line, written)),
  ];
}

/**
 * One entry per row of `from` where `where` holds when the batch runs, planned in SQL over the row's
 * columns as the domain plans one entry in TypeScript (the caller's test holds the two to agreement).
 */
interface LedgerEntryPerRow {
  from: SQLiteTable;
  where: SQL;
  idempotencyKey: SQL<string>;
  kind: LedgerEntry["kind"];
  consultationId: SQLWrapper | null;
  doctorId: SQLWrapper | null;
  paymentId: SQLWrapper | null;
  /** A line whose amount is zero for a row is left out, as the domain leaves it out. */
  lines: Array<{ account: LedgerAccount; subject: SQLWrapper | ""; amountSantim: SQL<number> }>;
}

/**
 * Statements that write a whole set of entries in two INSERT … SELECTs, for a batch that changes many
 * rows at once (the scheduled release): the entries, each once per key, and the lines only of entries
 * that have none yet, which are those this batch wrote (an entry and its lines are always one batch).
 */
export function ledgerEntryPerRowStatements(db: Database, plan: LedgerEntryPerRow, now: Date): Array<BatchItem<"sqlite">> {
  if (plan.lines.length < 2) throw new Error(`ledger entries ${plan.kind} refused: too_few_lines`);
  const linesSum = sql.join(
    plan.lines.map((line) => sql`(${line.amountSantim})`),
    sql` + `,
  );
  const lineCount = sql.join(
    plan.lines.map((line) => sql`(CASE WHEN ${line.amountSantim} <> 0 THEN 1 ELSE 0 END)`),
    sql` + `,
  );
  const column = (value: SQLWrapper | null, name: string) => (value === null ? sql`NULL` : sql`${value}`).as(name);
  const entries = db
    .insert(ledgerEntries)
    .select(
      db
        .select({
          id: randomUuidSql().as("id"),
          // A row whose lines would not balance gets no key, which the column refuses: the whole batch
          // fails, as ledgerEntryRefusal throws for one entry, rather than writing half a transfer.
          idempotencyKey: sql<string>`CASE WHEN ${linesSum} = 0 THEN ${plan.idempotencyKey} END`.as("idempotency_key"),
          kind: sql<LedgerEntry["kind"]>`${plan.kind}`.as("kind"),
          consultationId: column(plan.consultationId, "consultation_id"),
          doctorId: column(plan.doctorId, "doctor_id"),
          paymentId: column(plan.paymentId, "payment_id"),
          // The lines written below: every line of the plan but those of no amount.
          lineCount: sql<number>`${lineCount}`.as("line_count"),
          createdAt: sql<number>`${now.getTime()}`.as("created_at"),
        })
        .from(plan.from)
        .where(plan.where),
    )
    .onConflictDoNothing();
  const linesOf = plan.lines.map((line) =>
    db
      .select({
        id: randomUuidSql().as("id"),
        entryId: sql<string>`${ledgerEntries.id}`.as("entry_id"),
        account: sql<LedgerAccount>`${line.account}`.as("account"),
        subject: (line.subject === "" ? sql<string>`''` : sql<string>`${line.subject}`).as("subject"),
        amountSantim: sql<number>`${line.amountSantim}`.as("amount_santim"),
      })
      .from(plan.from)
      .innerJoin(ledgerEntries, and(eq(ledgerEntries.idempotencyKey, plan.idempotencyKey), eq(ledgerEntries.kind, plan.kind)))
      .where(
        and(
          plan.where,
          sql`${line.amountSantim} <> 0`,
          sql`NOT EXISTS (SELECT 1 FROM ${ledgerLines} WHERE ${ledgerLines.entryId} = ${ledgerEntries.id})`,
        ),
      ),
  );
  return [
    entries,
    db.insert(ledgerLines).select(
      sql.join(
        linesOf.map((one) => one.getSQL()),
        sql` UNION ALL `,
      ),
    ),
  ];
}

/** The balance of one account for one subject (a consultation's escrow, a doctor's payable), in santim. */
export async function balanceOf(db: Database, account: LedgerAccount, subject = ""): Promise<number> {
  const [row] = await db
    .select({ total: sum(ledgerLines.amountSantim) })
    .from(ledgerLines)
    .where(and(eq(ledgerLines.account, account), eq(ledgerLines.subject, subject)));
  return santimFromSum(row?.total);
}
