// The one writer of the money ledger (docs/decisions/0028). An entry is planned by the domain
// (app/domain/ledger.ts: lines that sum to zero, an idempotency key per event) and written here as
// statements for the caller's own D1 batch, beside the state change it records: written only where
// `onlyIf` holds when the batch runs (the change this call made) and only once per key, so a replayed
// webhook or a second job finds the key taken and writes nothing. Nothing updates or deletes an entry
// (the database's triggers refuse it).
import { and, eq, type SQL, sql, sum } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

import { ledgerEntries, ledgerLines } from "~/db/schema";
import { type LedgerAccount, type LedgerEntry, ledgerEntryRefusal } from "~/domain/ledger";
import { santimFromSum } from "~/domain/money";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";

/** Statements that write `entry` in the caller's batch, if `onlyIf` holds then and its key is not yet taken. */
export function ledgerEntryStatements(db: Database, entry: LedgerEntry, now: Date, onlyIf?: SQL): Array<BatchItem<"sqlite">> {
  const refusal = ledgerEntryRefusal(entry);
  if (refusal) throw new Error(`ledger entry ${entry.idempotencyKey} refused: ${refusal}`);
  const entryId = crypto.randomUUID();
  const written = sql`EXISTS (SELECT 1 FROM ${ledgerEntries} WHERE ${ledgerEntries.id} = ${entryId})`;
  return [
    insertWhere(
      db,
      ledgerEntries,
      {
        id: entryId,
        idempotencyKey: entry.idempotencyKey,
        kind: entry.kind,
        consultationId: entry.consultationId ?? null,
        doctorId: entry.doctorId ?? null,
        paymentId: entry.paymentId ?? null,
        lineCount: entry.lines.length,
        createdAt: now,
      },
      onlyIf,
    ),
    // The lines only with the entry this call wrote: a key already taken writes none.
    ...entry.lines.map((line) =>
      insertWhere(db, ledgerLines, { entryId, account: line.account, subject: line.subject, amountSantim: line.amountSantim }, written),
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
