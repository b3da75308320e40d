import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { birrAmount, csvDocument } from "~/domain/csv";
import { formatMoment } from "~/domain/dates";
import { detectLanguage, getTranslator } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { statementOf } from "~/server/money/earnings.server";

// The doctor's statement as CSV, in their language: every movement of what they are owed (a release
// to them, a payout sent or returned), oldest first, with the balance after each.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const movements = await statementOf(context.db, doctor.userId);
  let balanceSantim = 0;
  const rows = movements.map((movement) => {
    // doctor_payable is kept as a credit: what the doctor is owed grows as its lines go negative.
    const changeSantim = -movement.amountSantim;
    balanceSantim += changeSantim;
    return [
      formatMoment(movement.at, language),
      t(`earningsCsv.kinds.${movement.kind}`),
      movement.consultationId ?? "",
      // A payout's own reference (a release is found by its consultation).
      movement.kind.startsWith("payout") ? (movement.key.split(":")[1] ?? "") : "",
      // Amounts of our own: numbers to the spreadsheet (a payout is negative), never guarded as text.
      birrAmount(changeSantim),
      birrAmount(balanceSantim),
    ];
  });
  const header = (["date", "what", "consultation", "reference", "amount", "balance"] as const).map((column) =>
    t(`earningsCsv.columns.${column}`),
  );
  return new Response(csvDocument(header, rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="qoda-earnings.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
