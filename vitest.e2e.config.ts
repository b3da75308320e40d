import { defineConfig } from "vitest/config";

import { JOURNEY_LANES } from "./test/e2e/global-setup";

// Layer (c): browser journeys. Debian's chromium, driven by playwright-core, against real `wrangler dev`
// servers with fresh local state (test/e2e/global-setup.ts).
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/e2e/global-setup.ts"],
    // A file per lane at once, each lane against its own servers (one lane on two cores).
    fileParallelism: JOURNEY_LANES > 1,
    maxWorkers: JOURNEY_LANES,
    // Past what its steps may take: a poll whose element never shows waits one step's 15 s twice, and
    // then fails by the step's name instead of hiding it behind the test's own limit. A whole journey on
    // a slow phone (CPU 4× slower, slow 4G) on a busy machine may take two minutes; each step still fails
    // by its own name after 15 s.
    testTimeout: 150_000,
    // Pages hydrate after their scripts load; give live updates time on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
