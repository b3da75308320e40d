import { drizzle } from "drizzle-orm/d1";

import * as schema from "~/db/schema";

/** Drizzle over D1, or over one request's D1 session (read-replicas.server): drizzle uses only `prepare` and `batch`, which both have. */
export function createDatabase(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema });
}

export type Database = ReturnType<typeof createDatabase>;
