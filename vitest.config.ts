import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Layer (b): tests inside workerd with real D1, R2 and Durable Objects (miniflare), driving the built
// Worker through SELF.fetch. `npm test` builds first (the Worker imports build/server).
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
            TEST_MIGRATIONS: migrations,
          },
        },
      }),
    ],
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    test: {
      include: ["test/workers/**/*.test.ts"],
      setupFiles: ["./test/workers/apply-migrations.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
    },
  };
});
