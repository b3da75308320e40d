import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { birrAmount, type CsvCell, csvDocument } from "~/domain/csv";
import { requireAdmin } from "~/server/auth/guards.server";
import { journalLines } from "~/server/money/finance.server";

// The journal for the accountant: every line of every entry, oldest first, with its entry's key and
// what it concerns; debit and credit in separate columns, in birr with two decimals. Column names stay
// in English: they are the ledger's own words, read by accounting software as much as by people.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const rows: CsvCell[][] = [];
  for await (const line of journalLines(args.context.db)) {
    rows.push([
      line.at.toISOString(),
      line.entryId,
      line.key,
      line.kind,
      line.account,
      line.subject,
      line.amountSantim > 0 ? birrAmount(line.amountSantim) : "",
      line.amountSantim < 0 ? birrAmount(-line.amountSantim) : "",
      line.consultationId,
      line.doctorId,
      line.paymentId,
    ]);
  }
  const header = [
    "date_utc",
    "entry_id",
    "idempotency_key",
    "kind",
    "account",
    "subject",
    "debit_etb",
    "credit_etb",
    "consultation_id",
    "doctor_id",
    "payment_id",
  ];
  return new Response(csvDocument(header, rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="qoda-journal.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
