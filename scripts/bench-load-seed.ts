// The platform `npm run bench:load` starts from, as SQL: doctors with payout details, patients and an
// admin (each with a live session), and consultations that were paid, ended and released, with their
// payments, escrows and ledger entries written as the ledger module writes them (so the books balance
// and every doctor has money waiting for the first payout run).
import { CONSULTATION_FEE_SANTIM } from "../app/domain/money.ts";
import { paidConsultationInserts, paidConsultationRows } from "../test/support/bench-seed.ts";
import { benchAccount } from "../test/support/bench-stack.ts";
import { inserts, type Row } from "../test/support/seed-rows.ts";

/** The sandbox's charge on a fee (3.5 %), as its captures record it. */
const SANDBOX_CHARGE_SANTIM = 525;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The seeded consultations ended over the last 90 days. */
const HISTORY_DAYS = 90;

type Account = ReturnType<typeof benchAccount>;

export interface LoadPlatform {
  admin: Account;
  doctors: Account[];
  patients: Account[];
  statements: string[];
}

/** A CBE account of 13 digits per doctor, as the sandbox's transfers accept. */
function payoutAccountRows(doctors: Account[], now: number): Array<Row<"doctor_payout_accounts">> {
  return doctors.map((doctor, index) => ({
    doctorId: doctor.id,
    bankCode: "946",
    bankName: "Commercial Bank of Ethiopia (CBE)",
    accountName: `Bench Doctor ${index}`,
    accountNumber: String(1_000_000_000_000 + index),
    createdAt: new Date(now),
    updatedAt: new Date(now),
  }));
}

/** `count` consultations between the patients and doctors, each paid, ended and released. */
function releasedConsultations(count: number, patients: Account[], doctors: Account[], now: number) {
  return Array.from({ length: count }, (_, index) => {
    const completedAt = now - ((index * 13) % (HISTORY_DAYS * 24 * 60)) * MINUTE_MS - DAY_MS;
    return paidConsultationRows({
      patientId: patients[index % patients.length]!.id,
      doctorId: doctors[(index * 7) % doctors.length]!.id,
      title: `Seeded complaint ${index}: itchy patches on the arm`,
      txRef: `qoda-load-seed-${index}`,
      amountSantim: CONSULTATION_FEE_SANTIM,
      chargeSantim: SANDBOX_CHARGE_SANTIM,
      completedAt,
      // Released 72 hours after the end, or by now for the latest.
      releasedAt: Math.min(completedAt + 3 * DAY_MS, now - MINUTE_MS),
    });
  });
}

/** The seed: `counts.doctors` doctors, `counts.patients` patients, an admin and `counts.consultations` released consultations. */
export function loadPlatform(counts: { doctors: number; patients: number; consultations: number }, now: number): LoadPlatform {
  const admin = benchAccount("admin", 0, now);
  const doctors = Array.from({ length: counts.doctors }, (_, index) => benchAccount("doctor", index, now));
  const patients = Array.from({ length: counts.patients }, (_, index) => benchAccount("patient", index, now));
  const statements = [
    ...[admin, ...doctors, ...patients].flatMap((account) => account.statements),
    ...inserts("doctor_payout_accounts", payoutAccountRows(doctors, now)),
    ...paidConsultationInserts(releasedConsultations(counts.consultations, patients, doctors, now)),
  ];
  return { admin, doctors, patients, statements };
}
