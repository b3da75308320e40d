// After `npm run bench:load` stops issuing: was anything lost or doubled? Read from the local D1 the
// run wrote (and, for chat, from the consultation pages as their doctor sees them).
import { queryLocalD1 } from "../test/support/local-stack.ts";
import type { LoadClient, LoadRecord } from "./bench-load-flows.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface RunConsultation {
  id: string;
  title: string;
  doctor_id: string | null;
  paid_payments: number;
  captures: number;
  releases: number;
  escrows: number;
}

/** Every consultation the run submitted (their titles begin "Load "), with what the books hold of it. */
const RUN_CONSULTATIONS_SQL = `
  SELECT c.id, c.title, c.doctor_id,
    (SELECT COUNT(*) FROM payments p WHERE p.consultation_id = c.id AND p.status = 'paid') AS paid_payments,
    (SELECT COUNT(*) FROM ledger_entries e WHERE e.consultation_id = c.id AND e.kind = 'payment_captured') AS captures,
    (SELECT COUNT(*) FROM ledger_entries e WHERE e.consultation_id = c.id AND e.kind = 'escrow_released') AS releases,
    (SELECT COUNT(*) FROM escrows w WHERE w.consultation_id = c.id) AS escrows
  FROM consultations c WHERE c.title LIKE 'Load %'`;

const BOOKS_SQL = `
  SELECT
    (SELECT COALESCE(SUM(amount_santim), 0) FROM ledger_lines) AS journal_sum,
    (SELECT COUNT(*) FROM (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING SUM(amount_santim) <> 0)) AS unbalanced_entries,
    (SELECT COUNT(*) FROM (SELECT subject FROM ledger_lines WHERE account = 'doctor_payable' GROUP BY subject HAVING SUM(amount_santim) > 0)) AS doctors_overpaid,
    (SELECT COUNT(*) FROM payouts) AS payouts,
    (SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payout_started') AS payout_entries,
    (SELECT COUNT(*) FROM payouts WHERE status = 'succeeded') AS payouts_succeeded,
    (SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payout_settled') AS settled_entries`;

const countWhere = <Item>(items: Item[], predicate: (item: Item) => boolean) => items.filter(predicate).length;

function submittedOnce(record: LoadRecord, rows: RunConsultation[]): Check {
  const stored = new Map<string, number>();
  for (const row of rows) stored.set(row.title, (stored.get(row.title) ?? 0) + 1);
  const titles = [...record.submitted.keys()];
  const lost = countWhere(titles, (title) => !stored.has(title));
  const doubled = countWhere([...stored.values()], (count) => count > 1);
  const unasked = countWhere([...stored.keys()], (title) => !record.submitted.has(title));
  return {
    name: "every request stored once",
    ok: lost + doubled + unasked === 0,
    detail: `${titles.length} submitted, ${rows.length} stored: ${lost} lost, ${doubled} doubled, ${unasked} not answered as submitted`,
  };
}

function acceptedByOne(record: LoadRecord, byId: Map<string, RunConsultation>): Check {
  const wrong = countWhere([...record.accepted], ([id, doctorId]) => byId.get(id)?.doctor_id !== doctorId);
  return {
    name: "every accepted request has its one doctor",
    ok: wrong === 0,
    detail: `${record.accepted.size} accepted, ${wrong} without the doctor whose accept succeeded`,
  };
}

function paidOnce(record: LoadRecord, byId: Map<string, RunConsultation>): Check {
  const rows = [...record.paid].map((id) => byId.get(id));
  const wrong = countWhere(rows, (row) => !row || row.paid_payments !== 1 || row.captures !== 1 || row.escrows !== 1);
  const paidUnasked = countWhere([...byId.values()], (row) => !record.paid.has(row.id) && row.paid_payments > 0);
  return {
    name: "every paid one has one payment, one capture entry, one escrow",
    ok: wrong + paidUnasked === 0,
    detail: `${record.paid.size} paid, ${wrong} without exactly one of each, ${paidUnasked} paid that the run did not see paid`,
  };
}

function releasedOnce(record: LoadRecord, byId: Map<string, RunConsultation>): Check {
  const wrong = countWhere([...record.released], (id) => byId.get(id)?.releases !== 1);
  const releasedUnasked = countWhere([...byId.values()], (row) => !record.released.has(row.id) && row.releases > 0);
  return {
    name: "every released one has one release entry",
    ok: wrong + releasedUnasked === 0,
    detail: `${record.released.size} released, ${wrong} without exactly one release entry, ${releasedUnasked} released unasked`,
  };
}

function booksBalance(books: Record<string, number>): Check[] {
  return [
    {
      name: "the books sum to zero",
      ok: books.journal_sum === 0 && books.unbalanced_entries === 0,
      detail: `journal sums to ${books.journal_sum} santim, ${books.unbalanced_entries} unbalanced entries`,
    },
    {
      name: "payouts: none doubled, no doctor's payable negative",
      ok: books.doctors_overpaid === 0 && books.payouts === books.payout_entries && books.payouts_succeeded === books.settled_entries,
      detail:
        `${books.payouts} payouts with ${books.payout_entries} payout entries, ${books.payouts_succeeded} succeeded with ` +
        `${books.settled_entries} settled entries, ${books.doctors_overpaid} doctors paid more than they were owed`,
    },
  ];
}

/**
 * Each text the run sent is on the consultation's page exactly once, as its doctor sees it (the
 * patient's page leads to the feedback form until they rate it).
 */
async function messagesOnce(client: LoadClient): Promise<Check> {
  let sent = 0;
  let wrong = 0;
  let sample = "";
  for (const [id, { doctor, texts }] of client.record.messages) {
    const page = await fetch(`${client.origin}/doctor/consultation/${id}`, { headers: { Cookie: doctor.cookie }, redirect: "manual" });
    const html = page.status === 200 ? await page.text() : "";
    // The page holds each message twice: in its markup and in the data the page hydrates from (a script).
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    for (const text of texts) {
      sent += 1;
      const times = markup.split(text).length - 1;
      if (times !== 1) {
        wrong += 1;
        sample ||= `${id}: "${text}" shown ${times} times`;
      }
    }
  }
  return {
    name: "every chat message once in its history",
    ok: wrong === 0,
    detail: `${sent} sent, ${wrong} not shown exactly once${sample ? ` (${sample})` : ""}`,
  };
}

export async function integrityChecks(stateDir: string, client: LoadClient) {
  const rows = await queryLocalD1<RunConsultation>(stateDir, RUN_CONSULTATIONS_SQL);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const [books] = await queryLocalD1<Record<string, number>>(stateDir, BOOKS_SQL);
  const { record } = client;
  return [
    submittedOnce(record, rows),
    acceptedByOne(record, byId),
    paidOnce(record, byId),
    releasedOnce(record, byId),
    ...booksBalance(books!),
    await messagesOnce(client),
  ];
}
