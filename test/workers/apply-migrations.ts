import { applyD1Migrations, type D1Migration, env } from "cloudflare:test";

// vitest.config.ts passes the migrations read from migrations/ as a test-only binding.
const { TEST_MIGRATIONS } = env as Env & { TEST_MIGRATIONS: D1Migration[] };

// Setup files may run more than once; applyD1Migrations skips what is already applied.
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
