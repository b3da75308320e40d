// The rows the benches seed, typed by the drizzle schema (app/db/schema.ts) and written as SQL, so that
// tens of thousands go in through one `wrangler d1 execute`: consultations, and paid ones with their
// payment, escrow and ledger entries as the app writes them, built once here for every bench.
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";

import * as schema from "../../app/db/schema.ts";
import { escrowReleased, type LedgerEntry, paymentCaptured } from "../../app/domain/ledger.ts";

type Schema = typeof schema;
/** Each table of the schema by its name in SQL. */
type Tables = { [Key in keyof Schema as Schema[Key] extends SQLiteTable ? Schema[Key]["_"]["name"] : never]: Schema[Key] };
type TableName = keyof Tables;
/** A row of the table named `Name` as drizzle's insert takes it: timestamps as Dates, booleans as booleans. */
export type Row<Name extends TableName> = Tables[Name]["$inferInsert"];

const tables = new Map<string, SQLiteTable>(
  Object.values(schema).flatMap((value) => (is(value, SQLiteTable) ? [[getTableName(value), value] as const] : [])),
);

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

function literal(value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string") return quote(value);
  throw new Error(`No SQL literal for ${String(value)}`);
}

/**
 * `rows` of the table named `name` as multi-row INSERTs of 200 each (one statement per batch keeps the
 * seed file quick to run), each value as its column stores it. Every row names the same columns; a column a row leaves
 * out gets the schema's $defaultFn, as drizzle's own insert gives it, or else the database's default.
 */
export function inserts<Name extends TableName>(name: Name, rows: Array<Row<Name>>): string[] {
  const table = tables.get(name)!;
  const cellsOf = rows as Array<Record<string, unknown>>;
  if (cellsOf.length === 0) return [];
  const given = (row: Record<string, unknown>) =>
    Object.keys(row)
      .filter((key) => row[key] !== undefined)
      .sort()
      .join();
  const first = cellsOf[0]!;
  const columns = Object.entries(getTableColumns(table)).filter(([key, column]) => first[key] !== undefined || column.defaultFn);
  const values = cellsOf.map((row) => {
    if (given(row) !== given(first)) throw new Error(`A row of ${name} names other columns than its first`);
    const cells = columns.map(([key, column]) => {
      const value = row[key] === undefined ? column.defaultFn!() : row[key];
      return value === null ? "NULL" : literal(column.mapToDriverValue(value));
    });
    return `(${cells.join(", ")})`;
  });
  const names = columns.map(([, column]) => column.name).join(", ");
  const statements: string[] = [];
  for (let start = 0; start < values.length; start += 200) {
    statements.push(`INSERT INTO ${name} (${names}) VALUES ${values.slice(start, start + 200).join(", ")};`);
  }
  return statements;
}

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

/** A ledger entry (app/domain/ledger.ts builds it, as the app does) as its row and its lines' rows, written at `createdAt` (ms). */
function ledgerRows(entry: LedgerEntry, createdAt: number) {
  const id = crypto.randomUUID();
  const entryRow: Row<"ledger_entries"> = {
    id,
    idempotencyKey: entry.idempotencyKey,
    kind: entry.kind,
    consultationId: entry.consultationId ?? null,
    doctorId: entry.doctorId ?? null,
    paymentId: entry.paymentId ?? null,
    lineCount: entry.lines.length,
    createdAt: new Date(createdAt),
  };
  const lineRows: Array<Row<"ledger_lines">> = entry.lines.map((line) => ({
    id: crypto.randomUUID(),
    entryId: id,
    account: line.account,
    subject: line.subject,
    amountSantim: line.amountSantim,
  }));
  return { entryRow, lineRows };
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
