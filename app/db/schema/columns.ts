// Columns and CHECK helpers every area's tables share.
import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

export const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
export const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date());
export const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .$defaultFn(() => new Date());

/** `'a', 'b'` for a CHECK constraint; values are our own constants, never user input. */
export const quotedList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");
/** `column IN ('a', 'b')` for a CHECK constraint. */
export function oneOf(column: string, values: readonly string[]) {
  return sql.raw(`${column} IN (${quotedList(values)})`);
}
export const isBoolean = (column: string) => sql.raw(`${column} IN (0, 1)`);
