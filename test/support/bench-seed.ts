// The rows the benches seed, typed by the drizzle schema and written as SQL (seed-rows.ts), so that
// tens of thousands go in through one `wrangler d1 execute`: consultations, and paid ones with their
// payment, escrow and ledger entries as the app writes them, built once here for every bench.
import { escrowReleased, paymentCaptured } from "../../app/domain/ledger.ts";
import { inserts, ledgerRows, type Row } from "./seed-rows.ts";

const MINUTE_MS = 60_000;
const at = (ms: number | null) => (ms === null ? null : new Date(ms));

/** A consultation as the benches seed it: its complaint as its title, at normal priority; times in ms. */
export function consultationRow(consultation: {
  id: string;
  patientId: string;
  doctorId: string | null;
  status: Row<"consultations">["status"];
  title: string;
  acceptedAt: number | null;
  startedAt: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
}): Row<"consultations"> {
  const { acceptedAt, startedAt, completedAt, createdAt, updatedAt, ...rest } = consultation;
  return {
    ...rest,
    priority: "normal",
    mainConcern: consultation.title,
    acceptedAt: at(acceptedAt),
    startedAt: at(startedAt),
    completedAt: at(completedAt),
    createdAt: at(createdAt)!,
    updatedAt: at(updatedAt)!,
  };
}

/** A payment in birr through the sandbox, paid (and last changed) at `paidAt`, begun at `createdAt`; times in ms. */
export function paidPaymentRow(payment: {
  id: string;
  consultationId: string;
  patientId: string;
  txRef: string;
  amountSantim: number;
  paidAt: number;
  createdAt: number;
}): Row<"payments"> {
  return {
    ...payment,
    provider: "sandbox",
    currency: "ETB",
    status: "paid",
    paidAt: at(payment.paidAt),
    createdAt: at(payment.createdAt)!,
    updatedAt: at(payment.paidAt)!,
  };
}

/** The escrow of a paid consultation's fee, from its payment on: held, or released at `releasedAt` (ms). */
function escrowRow(payment: Row<"payments">, doctorId: string, releasedAt: number | null): Row<"escrows"> {
  return {
    consultationId: payment.consultationId,
    paymentId: payment.id!,
    doctorId,
    amountSantim: payment.amountSantim,
    status: releasedAt === null ? "held" : "released",
    releasedAt: at(releasedAt),
    createdAt: payment.paidAt!,
    updatedAt: at(releasedAt) ?? payment.paidAt!,
  };
}

/** A paid consultation's rows, table by table. */
interface PaidConsultationRows {
  consultation: Row<"consultations">;
  payment: Row<"payments">;
  escrow: Row<"escrows">;
  entries: Array<Row<"ledger_entries">>;
  lines: Array<Row<"ledger_lines">>;
}

/**
 * A consultation accepted 35 minutes before `completedAt`, paid 5 minutes later (its fee captured into
 * escrow, less the provider's `chargeSantim`, as the ledger records a capture) and ended at `completedAt`
 * (ms); its escrow released at `releasedAt` with the release's entry, or else still held.
 */
export function paidConsultationRows(paid: {
  patientId: string;
  doctorId: string;
  title: string;
  txRef: string;
  amountSantim: number;
  chargeSantim: number;
  completedAt: number;
  releasedAt: number | null;
}): PaidConsultationRows {
  const { patientId, doctorId, amountSantim, completedAt, releasedAt } = paid;
  const id = crypto.randomUUID();
  const startedAt = completedAt - 30 * MINUTE_MS;
  const acceptedAt = startedAt - 5 * MINUTE_MS;
  const consultation = consultationRow({
    id,
    patientId,
    doctorId,
    status: "completed",
    title: paid.title,
    acceptedAt,
    startedAt,
    completedAt,
    createdAt: acceptedAt,
    updatedAt: completedAt,
  });
  const payment = paidPaymentRow({
    id: crypto.randomUUID(),
    consultationId: id,
    patientId,
    txRef: paid.txRef,
    amountSantim,
    paidAt: startedAt,
    createdAt: acceptedAt,
  });
  const capture = paymentCaptured({
    txRef: paid.txRef,
    paymentId: payment.id!,
    consultationId: id,
    amountSantim,
    chargeSantim: paid.chargeSantim,
  });
  const entries = [ledgerRows(capture, startedAt)];
  if (releasedAt !== null) entries.push(ledgerRows(escrowReleased({ consultationId: id, doctorId, amountSantim }), releasedAt));
  return {
    consultation,
    payment,
    escrow: escrowRow(payment, doctorId, releasedAt),
    entries: entries.map((entry) => entry.entryRow),
    lines: entries.flatMap((entry) => entry.lineRows),
  };
}

/** Paid consultations' rows as INSERTs, each table after those it refers to. */
export function paidConsultationInserts(paid: PaidConsultationRows[]): string[] {
  return [
    ...inserts(
      "consultations",
      paid.map((one) => one.consultation),
    ),
    ...inserts(
      "payments",
      paid.map((one) => one.payment),
    ),
    ...inserts(
      "escrows",
      paid.map((one) => one.escrow),
    ),
    ...inserts(
      "ledger_entries",
      paid.flatMap((one) => one.entries),
    ),
    ...inserts(
      "ledger_lines",
      paid.flatMap((one) => one.lines),
    ),
  ];
}
