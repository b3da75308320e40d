// Searching text columns on the server, for every list that has a search box.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Whether `column` (or an expression, e.g. a full name) contains `text`, ignoring ASCII case like LIKE does. Not LIKE itself: D1 refuses a
 * LIKE pattern over 50 bytes (a pasted email address is enough), and `%` or `_` typed in a search are
 * meant literally.
 */
export const contains = (column: SQLiteColumn | SQL, text: string) => sql`instr(lower(${column}), lower(${text})) > 0`;
