import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Layer (b): tests inside workerd with real D1, R2 and Durable Objects (miniflare), driving the built
// Worker through SELF.fetch. The Worker imports build/server: `npm test` builds first, and a build
// older than app/ is refused (test/workers/fresh-build.ts) rather than tested.
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
      include: ["test/workers/**/*.test.ts"],
      // Two files at once even on two cores (vitest would run one): much of each file's time is its
      // runtime starting, not computing, so this layer takes about 80 s instead of about 130 s.
      maxWorkers: 2,
      // A test's limit catches a hang, never slowness: on a busy machine (or one four times slower) a
      // request that takes 5 s instead of 0.5 s is still a pass (issue 28).
      testTimeout: 60_000,
      hookTimeout: 60_000,
      globalSetup: ["./test/workers/fresh-build.ts"],
      setupFiles: ["./test/workers/apply-migrations.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
    },
  };
});
