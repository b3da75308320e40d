import { defineConfig } from "vitest/config";

import { JOURNEY_LANES } from "./test/e2e/global-setup";

// Layer (c): browser journeys. Debian's chromium-headless-shell, driven by playwright-core, against real `wrangler dev`
// servers with fresh local state (test/e2e/global-setup.ts).
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/e2e/global-setup.ts"],
    // A file per lane at once, each lane against its own servers (two lanes on two cores).
    fileParallelism: JOURNEY_LANES > 1,
    maxWorkers: JOURNEY_LANES,
    // A hang detector, not a stopwatch, and the same for every journey: each step fails by its own name
    // after 15 s, so this only ends a journey that stopped moving. The longest (the Amharic dispute on a
    // slow phone) took 94 s in a normal run and 191 s with the whole suite on one core: on a machine four
    // times slower it would pass 300 s.
    testTimeout: 600_000,
    // Pages hydrate after their scripts load; give live updates time on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
