// The one source of truth for Qoda's tables. `npm run db:generate` turns changes into a new SQL file
// under migrations/; never edit a migration that has been applied.
//
// Times are stored as milliseconds since the epoch (`timestamp_ms`). Ids are random UUIDs, except the
// append-only audit log, which counts. Enumerations and ranges are CHECK constraints, so a bad value
// is refused by the database itself whatever code wrote it.
//
// Tables live in one file per area under ./schema/; this barrel is what the app, drizzle-kit
// (drizzle.config.ts) and the tests import, so a new area file is added here.
export * from "./schema/accounts";
export * from "./schema/admin";
export * from "./schema/consultations";
export * from "./schema/money";
export * from "./schema/payments";
export * from "./schema/platform";
export * from "./schema/reconciliation";
export * from "./schema/telegram";
