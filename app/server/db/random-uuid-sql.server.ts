// A random UUID made by the database, one per row of a set-based INSERT … SELECT, in the shape
// crypto.randomUUID() gives (version 4, lower-case hex), so ids written by a statement read like any other.
import { type SQL, sql } from "drizzle-orm";

export function randomUuidSql(): SQL<string> {
  // `random() & 3` picks the variant digit (8, 9, a or b) without abs(), which overflows on one value.
  return sql<string>`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
}
