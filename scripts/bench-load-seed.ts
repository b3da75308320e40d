// The platform `npm run bench:load` starts from, as SQL: doctors with payout details, patients and an
// admin (each with a live session), and consultations that were paid, ended and released, with their
// payments, escrows and ledger entries written as the ledger module writes them (so the books balance
// and every doctor has money waiting for the first payout run).
import { randomUUID } from "node:crypto";

import { escrowReleased, type LedgerEntry, paymentCaptured } from "../app/domain/ledger.ts";
import { CONSULTATION_FEE_SANTIM } from "../app/domain/money.ts";
import { benchAccount, inserts, SEED_COLUMNS } from "../test/support/bench-stack.ts";

/** The sandbox's charge on a fee (3.5 %), as its captures record it. */
const SANDBOX_CHARGE_SANTIM = 525;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The seeded consultations ended over the last 90 days. */
const HISTORY_DAYS = 90;

type Row = Array<string | number | null>;
type Account = ReturnType<typeof benchAccount>;

export interface LoadPlatform {
  admin: Account;
  doctors: Account[];
  patients: Account[];
  statements: string[];
}

/** A CBE account of 13 digits per doctor, as the sandbox's transfers accept. */
function payoutAccountRows(doctors: Account[], now: number): Row[] {
  return doctors.map((doctor, index) => [
    doctor.id,
    "946",
    "Commercial Bank of Ethiopia (CBE)",
    `Bench Doctor ${index}`,
    String(1_000_000_000_000 + index),
    now,
    now,
  ]);
}

/** The entry's row and its lines' rows. */
function ledgerRows(entry: LedgerEntry, createdAtMs: number) {
  const id = randomUUID();
  const entryRow: Row = [
    id,
    entry.idempotencyKey,
    entry.kind,
    entry.consultationId ?? null,
    entry.doctorId ?? null,
    entry.paymentId ?? null,
    entry.lines.length,
    createdAtMs,
  ];
  const lineRows: Row[] = entry.lines.map((line) => [randomUUID(), id, line.account, line.subject, line.amountSantim]);
  return { entryRow, lineRows };
}

/** `count` consultations between the patients and doctors, each paid, ended and released. */
function releasedConsultations(count: number, patients: Account[], doctors: Account[], now: number) {
  const rows = { consultationRows: [] as Row[], payments: [] as Row[], escrows: [] as Row[], entries: [] as Row[], lines: [] as Row[] };
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    const paymentId = randomUUID();
    const patient = patients[index % patients.length]!;
    const doctor = doctors[(index * 7) % doctors.length]!;
    const completedAt = now - ((index * 13) % (HISTORY_DAYS * 24 * 60)) * MINUTE_MS - DAY_MS;
    const startedAt = completedAt - 30 * MINUTE_MS;
    const acceptedAt = startedAt - 5 * MINUTE_MS;
    const title = `Seeded complaint ${index}: itchy patches on the arm`;
    rows.consultationRows.push([
      id,
      patient.id,
      doctor.id,
      "completed",
      "normal",
      title,
      title,
      acceptedAt,
      startedAt,
      completedAt,
      acceptedAt,
      completedAt,
    ]);
    const txRef = `qoda-load-seed-${index}`;
    rows.payments.push([
      paymentId,
      id,
      patient.id,
      txRef,
      "sandbox",
      CONSULTATION_FEE_SANTIM,
      "ETB",
      "paid",
      startedAt,
      acceptedAt,
      startedAt,
    ]);
    // Released 72 hours after the end, or by now for the latest.
    const releasedAt = Math.min(completedAt + 3 * DAY_MS, now - MINUTE_MS);
    rows.escrows.push([id, paymentId, doctor.id, CONSULTATION_FEE_SANTIM, "released", releasedAt, startedAt, releasedAt]);
    const capture = paymentCaptured({
      txRef,
      paymentId,
      consultationId: id,
      amountSantim: CONSULTATION_FEE_SANTIM,
      chargeSantim: SANDBOX_CHARGE_SANTIM,
    });
    const release = escrowReleased({ consultationId: id, doctorId: doctor.id, amountSantim: CONSULTATION_FEE_SANTIM });
    for (const { entryRow, lineRows } of [ledgerRows(capture, startedAt), ledgerRows(release, releasedAt)]) {
      rows.entries.push(entryRow);
      rows.lines.push(...lineRows);
    }
  }
  return rows;
}

/** The seed: `counts.doctors` doctors, `counts.patients` patients, an admin and `counts.consultations` released consultations. */
export function loadPlatform(counts: { doctors: number; patients: number; consultations: number }, now: number): LoadPlatform {
  const admin = benchAccount("admin", 0, now);
  const doctors = Array.from({ length: counts.doctors }, (_, index) => benchAccount("doctor", index, now));
  const patients = Array.from({ length: counts.patients }, (_, index) => benchAccount("patient", index, now));
  const rows = releasedConsultations(counts.consultations, patients, doctors, now);
  const statements = [
    ...[admin, ...doctors, ...patients].flatMap((account) => account.statements),
    ...inserts(
      "doctor_payout_accounts",
      ["doctor_id", "bank_code", "bank_name", "account_name", "account_number", "created_at", "updated_at"],
      payoutAccountRows(doctors, now),
    ),
    ...inserts("consultations", SEED_COLUMNS.consultation, rows.consultationRows),
    ...inserts("payments", SEED_COLUMNS.payment, rows.payments),
    ...inserts(
      "escrows",
      ["consultation_id", "payment_id", "doctor_id", "amount_santim", "status", "released_at", "created_at", "updated_at"],
      rows.escrows,
    ),
    ...inserts("ledger_entries", SEED_COLUMNS.ledgerEntry, rows.entries),
    ...inserts("ledger_lines", SEED_COLUMNS.ledgerLine, rows.lines),
  ];
  return { admin, doctors, patients, statements };
}
