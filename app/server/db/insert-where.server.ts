// INSERT … SELECT … WHERE: a row written only if a condition holds when the statement runs, so the
// check and the write are one statement and no race slips between them (a cap, a move this call made).
// Batchable, unlike a raw statement with parameters.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

import type { Database } from "~/server/db/client.server";

export function insertWhere<Table extends SQLiteTable>(db: Database, table: Table, row: Table["$inferInsert"], condition: SQL | undefined) {
  // The SELECT lists every column in the table's order, with its default where the row has none.
  const selected = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const given = (row as Record<string, unknown>)[key];
    return sql.param(given !== undefined ? given : column.defaultFn ? column.defaultFn() : (column.default ?? null), column);
  });
  return db
    .insert(table)
    .select(sql`SELECT ${sql.join(selected, sql`, `)} WHERE ${condition ?? sql`1`}`)
    .onConflictDoNothing();
}
