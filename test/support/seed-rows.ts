// Rows typed by the drizzle schema (app/db/schema.ts) and written as SQL statements, for the seeds that
// run outside the Worker (the demo's, the benches'): a column misspelt or a value of the wrong type is a
// type error here, as it is in the app.
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";

import * as schema from "../../app/db/schema.ts";
import { type LedgerEntry, ledgerEntryRows } from "../../app/domain/ledger.ts";

type Schema = typeof schema;
/** Each table of the schema by its name in SQL. */
type Tables = { [Key in keyof Schema as Schema[Key] extends SQLiteTable ? Schema[Key]["_"]["name"] : never]: Schema[Key] };
export type TableName = keyof Tables;
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
 * seed file quick to run), each value as its column stores it; `orIgnore` keeps a row already there
 * (the demo seed runs again on a state that has lived). Every row names the same columns; a column a row leaves
 * out gets the schema's $defaultFn, as drizzle's own insert gives it, or else the database's default.
 */
export function inserts<Name extends TableName>(name: Name, rows: Array<Row<Name>>, { orIgnore = false } = {}): string[] {
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
    statements.push(`INSERT${orIgnore ? " OR IGNORE" : ""} INTO ${name} (${names}) VALUES ${values.slice(start, start + 200).join(", ")};`);
  }
  return statements;
}

/**
 * A ledger entry (app/domain/ledger.ts builds it, as the app does) as its rows, as the ledger module
 * writes them, at `createdAt` (ms), under `id` (fixed by the demo so that seeding again writes no second entry).
 */
export function ledgerRows(entry: LedgerEntry, createdAt: number, id: string = crypto.randomUUID()) {
  const rows = ledgerEntryRows(entry, id, new Date(createdAt));
  const entryRow: Row<"ledger_entries"> = rows.entry;
  const lineRows: Array<Row<"ledger_lines">> = rows.lines.map((line, index) => ({ id: `${id}:${index}`, ...line }));
  return { entryRow, lineRows };
}
