import { defineConfig } from "vitest/config";

// Layer (c'): the crash test. A `wrangler dev` of its own, killed mid-operation and started again on the
// same state; no browser. It runs in the Workers lane, after the Workers tests, so the journeys' lane
// (the longer one) does not carry it.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["test/crash/**/*.test.ts"],
    environment: "node",
    // The server it starts serves build/: a build older than its sources is refused, not tested.
    globalSetup: ["./test/workers/fresh-build.ts"],
    // A hang detector, not a stopwatch: a test starts wrangler again several times, and a machine loaded
    // four times over takes minutes for that.
    testTimeout: 300_000,
  },
});
