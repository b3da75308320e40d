// `npm test`: the three test layers in turn — (a) domain unit tests, (b) Workers-runtime tests,
// (c) browser journeys — each with a JSON report, then (d) the size budgets (`bench:size`, counted as
// one check). Every layer runs even if an earlier one failed; the command fails if any did. The last
// line sums them up as `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { PROJECT_ROOT } from "./local-stack.ts";

const LAYERS = [
  { name: "domain unit tests", config: "vitest.unit.config.ts", report: "unit.json" },
  { name: "Workers-runtime tests", config: "vitest.config.ts", report: "workers.json" },
  { name: "browser journeys", config: "vitest.e2e.config.ts", report: "e2e.json" },
] as const;

const reportsDir = join(PROJECT_ROOT, "test-results");
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

let passed = 0;
let failed = 0;
const lines: string[] = [];

for (const layer of LAYERS) {
  const reportPath = join(reportsDir, layer.report);
  console.log(`\n=== ${layer.name} ===`);
  const run = spawnSync(
    "vitest",
    ["run", "--config", layer.config, "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath}`],
    { cwd: PROJECT_ROOT, stdio: "inherit", env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" } },
  );
  if (!existsSync(reportPath)) {
    failed += 1;
    lines.push(`${layer.name}: no report (vitest exited with ${run.status})`);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
  // A layer that ran nothing, or exited non-zero with no failed test (a crash in setup), counts as a failure.
  const layerFailed =
    report.numFailedTests + (run.status !== 0 && report.numFailedTests === 0 ? 1 : 0) + (report.numTotalTests === 0 ? 1 : 0);
  passed += report.numPassedTests;
  failed += layerFailed;
  lines.push(`${layer.name}: ${report.numPassedTests} passed, ${layerFailed} failed`);
}

// The size budgets: the app was built by `pretest`, so the bench measures that very build.
console.log("\n=== size budgets ===");
const sizes = spawnSync("node", ["scripts/bench-size.ts", "--no-build"], { cwd: PROJECT_ROOT, stdio: "inherit", env: process.env });
const sizesPassed = sizes.status === 0;
passed += sizesPassed ? 1 : 0;
failed += sizesPassed ? 0 : 1;
lines.push(`size budgets: ${sizesPassed ? "1 passed, 0 failed" : "0 passed, 1 failed"}`);

console.log(`\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
