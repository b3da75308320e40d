// The one source of truth for Qoda's tables. `npm run db:generate` turns changes into a new SQL file
// under migrations/; never edit a migration that has been applied.
//
// Times are stored as milliseconds since the epoch (`timestamp_ms`). Ids are random UUIDs, except the
// append-only audit log, which counts. Enumerations and ranges are CHECK constraints, so a bad value
// is refused by the database itself whatever code wrote it.
//
// Tables live in one file per area under ./schema/; this barrel is what the app, drizzle-kit
// (drizzle.config.ts) and the tests import, so a new area file is added here. Its imports, and those of
// the area files and the domain modules they load, name the .ts file: the bench seeds load the schema
// under plain Node (scripts/bench-seed.ts), which adds no extension.
export * from "./schema/accounts.ts";
export * from "./schema/admin.ts";
export * from "./schema/consultations.ts";
export * from "./schema/money.ts";
export * from "./schema/payments.ts";
export * from "./schema/platform.ts";
export * from "./schema/reconciliation.ts";
export * from "./schema/telegram.ts";
