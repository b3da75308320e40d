import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Layer (b): tests inside workerd with real D1, R2 and Durable Objects (miniflare), driving the built
// Worker through SELF.fetch. The Worker imports build/server: `npm test` builds first, and a build
// older than app/ is refused (test/workers/fresh-build.ts) rather than tested.

/** Files that need the platform to themselves (see `projects` below). */
const WORLDS_OF_THEIR_OWN = [
  "admin-records",
  "cancel-paid",
  "data",
  "doctor-onboarding",
  "finance",
  "first-admin",
  "follow-ups",
  "mail-outbox",
  "payments",
  "privacy",
  "reconciliation",
  "socket-lifetime",
  "timeline",
].map((name) => `test/workers/${name}.test.ts`);

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./server.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            APP_ENV: "test",
            SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
            // The tests play Cloudflare's edge: each Visitor's CF-Connecting-IP is its own address.
            TRUST_CF_CONNECTING_IP: "true",
            SITE_URL: "https://qoda.test",
            TEST_MIGRATIONS: migrations,
          },
        },
      }),
    ],
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    test: {
      // Two files at once even on two cores (vitest would run one): much of a file's time is waiting on
      // its runtime, not computing.
      maxWorkers: 2,
      // A test's limit catches a hang, never slowness: on a busy machine (or one four times slower) a
      // request that takes 5 s instead of 0.5 s is still a pass (issue 28).
      testTimeout: 60_000,
      hookTimeout: 60_000,
      globalSetup: ["./test/workers/fresh-build.ts"],
      setupFiles: ["./test/workers/apply-migrations.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
      projects: [
        // Most files share one runtime (and its D1, R2 and rooms) per worker: starting a runtime and
        // loading the app into it took about 6 s a file, half of this layer's CPU. Each such test makes
        // the people and consultations it needs, with fresh ids, so it does not mind the others' rows.
        {
          extends: true as const,
          test: { name: "shared world", include: ["test/workers/**/*.test.ts"], exclude: WORLDS_OF_THEIR_OWN, isolate: false },
        },
        // These read or change the whole platform (its totals, the scheduled jobs over every row, the
        // first admin, the clock of every room), so each starts from an empty one.
        { extends: true as const, test: { name: "world of its own", include: WORLDS_OF_THEIR_OWN } },
      ],
    },
  };
});
