// `npm test`: the three test layers in turn — (a) domain unit tests, (b) Workers-runtime tests,
// (c) browser journeys — each with a JSON report, then (d) the size budgets and the accessibility audit
// of every page in both languages (`bench:size`, counted as one check each). Every layer runs even if an
// earlier one failed; the command fails if any did. The journeys and the size run start from one seeded
// state, made once here. Each layer's line gives its time; the last line sums them up as
// `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

import { PROJECT_ROOT, SEEDED_STATE_VARIABLE, seededState } from "./local-stack.ts";

const LAYERS = [
  { name: "domain unit tests", config: "vitest.unit.config.ts", report: "unit.json" },
  { name: "Workers-runtime tests", config: "vitest.config.ts", report: "workers.json" },
  { name: "browser journeys", config: "vitest.e2e.config.ts", report: "e2e.json" },
] as const;

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
};

// Each failed test by file and name with the first line of its error, so the summary (which is all a
// CI log may keep) says what failed.
function failuresOf(report: VitestReport): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => {
        let firstLine = (test.failureMessages[0] ?? "").split("\n")[0]?.slice(0, 300);
        // Vitest 4 keeps the placeholder message in the stack of a test that ran past its time limit.
        if (firstLine === "Error: STACK_TRACE_ERROR") firstLine = "the test ran past its time limit";
        return `  failed: ${relative(PROJECT_ROOT, file.name)} > ${test.fullName}: ${firstLine}`;
      }),
  );
}

const reportsDir = join(PROJECT_ROOT, "test-results");
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const startedMs = Date.now();
let passed = 0;
let failed = 0;
const lines: string[] = [];
const seconds = (sinceMs: number) => `${Math.round((Date.now() - sinceMs) / 1000)} s`;

// Migrated and seeded once (wrangler is slow to start): the journeys' servers and the size run copy it.
// If that fails, each seeds its own and says why it could not.
const seeded = await seededState({ quiet: true }).catch((error: unknown) => {
  console.error(`Seeding the shared local state failed; each layer seeds its own.\n${String(error)}`);
  return undefined;
});
// Failed journeys and the journeys' servers write what they saw here; the summary prints it.
const journeyFailuresFile = join(reportsDir, "journey-failures.txt");
/** How much of that the summary prints: enough for a failed journey's report, not a flood. */
const JOURNEY_REPORT_LINES = 60;
const env = {
  ...process.env,
  JOURNEY_FAILURES_FILE: journeyFailuresFile,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  ...(seeded ? { [SEEDED_STATE_VARIABLE]: seeded } : {}),
};
lines.push(`seeding the local state: ${seconds(startedMs)}`);

for (const layer of LAYERS) {
  const reportPath = join(reportsDir, layer.report);
  const layerStartedMs = Date.now();
  console.log(`\n=== ${layer.name} ===`);
  const run = spawnSync(
    "vitest",
    ["run", "--config", layer.config, "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath}`],
    { cwd: PROJECT_ROOT, stdio: "inherit", env },
  );
  if (!existsSync(reportPath)) {
    failed += 1;
    lines.push(`${layer.name}: no report (vitest exited with ${run.status}) in ${seconds(layerStartedMs)}`);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as VitestReport;
  // A layer that ran nothing, or exited non-zero with no failed test (a crash in setup), counts as a failure.
  const layerFailed =
    report.numFailedTests + (run.status !== 0 && report.numFailedTests === 0 ? 1 : 0) + (report.numTotalTests === 0 ? 1 : 0);
  passed += report.numPassedTests;
  failed += layerFailed;
  lines.push(`${layer.name}: ${report.numPassedTests} passed, ${layerFailed} failed in ${seconds(layerStartedMs)}`);
  lines.push(...failuresOf(report));
  if (layer.config === "vitest.e2e.config.ts" && existsSync(journeyFailuresFile)) {
    const reported = readFileSync(journeyFailuresFile, "utf8").trimEnd().split("\n");
    lines.push(...reported.slice(0, JOURNEY_REPORT_LINES).map((line) => `    ${line}`));
    if (reported.length > JOURNEY_REPORT_LINES)
      lines.push(`    (${reported.length - JOURNEY_REPORT_LINES} more lines in ${relative(PROJECT_ROOT, journeyFailuresFile)})`);
  }
}

// The size budgets and the accessibility audit of every page: the app was built by `pretest`, so the
// bench measures that very build.
console.log("\n=== size budgets and accessibility audit ===");
const sizesStartedMs = Date.now();
const sizesReport = join(reportsDir, "size.json");
const sizes = spawnSync("node", ["scripts/bench-size.ts", "--no-build", "--report", sizesReport], {
  cwd: PROJECT_ROOT,
  stdio: "inherit",
  env,
});
const sizesTook = seconds(sizesStartedMs);
const found = existsSync(sizesReport)
  ? (JSON.parse(readFileSync(sizesReport, "utf8")) as { sizeProblems: string[]; auditProblems: string[]; audited: number })
  : undefined;
const checks = [
  { name: "size budgets", ok: found !== undefined && found.sizeProblems.length === 0 },
  {
    name: `accessibility audit (${found?.audited ?? 0} pages, English and Amharic)`,
    ok: found !== undefined && found.audited > 0 && found.auditProblems.length === 0,
  },
];
if (!found) lines.push(`size run: no report (exited with ${sizes.status})`);
for (const check of checks) {
  passed += check.ok ? 1 : 0;
  failed += check.ok ? 0 : 1;
  lines.push(`${check.name}: ${check.ok ? "1 passed, 0 failed" : "0 passed, 1 failed"} in ${sizesTook}`);
}
if (seeded) rmSync(seeded, { recursive: true, force: true });

lines.push(`all layers: ${seconds(startedMs)}`);
console.log(`\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
