// `npm test`: every test layer, in two lanes that run at once on the machine's two cores.
//   Workers lane:  (a) domain unit tests, then (b) Workers-runtime tests (real D1, R2, Durable Objects)
//                  with the crash test beside them (a `wrangler dev` killed mid-operation, mostly waiting for
//                  it to restart).
//   Browser lane:  (c) browser journeys.
//   Then, after whichever lane ends first: (d) the size budgets and the accessibility audit of every page
//                  in both languages (`bench:size`, one check each).
// The journeys, the crash test and the size run start from one seeded local state, made as the lanes start;
// otherwise the lanes share nothing: each layer has its own D1 and its own servers. Every layer runs even if an
// earlier one failed; the command fails if any did. Each layer's output goes to test-results/<layer>.log
// and, prefixed with the layer's name, to this terminal. Each layer's line gives its wall time and the CPU
// its processes used, then its 10 slowest files; the last line sums them up as `N passed, N failed`.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";

import { PROJECT_ROOT, SEEDED_STATE_VARIABLE, seededState } from "../test/support/local-stack.ts";

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
};

/** What one layer printed in the summary and counted. */
type Outcome = { passed: number; failed: number; lines: string[] };

const reportsDir = join(PROJECT_ROOT, "test-results");
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const startedMs = Date.now();
const seconds = (sinceMs: number) => `${Math.round((Date.now() - sinceMs) / 1000)} s`;
/** How many of a layer's slowest files its summary names. */
const SLOWEST_FILES = 10;
// Failed journeys and the journeys' servers write what they saw here; the summary prints it.
const journeyFailuresFile = join(reportsDir, "journey-failures.txt");
/** How much of that the summary prints: enough for a failed journey's report, not a flood. */
const JOURNEY_REPORT_LINES = 60;
const baseEnv = {
  ...process.env,
  JOURNEY_FAILURES_FILE: journeyFailuresFile,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

/**
 * Where a layer's processes are counted: a cgroup of its own when the machine lets us make one (cgroup v1's
 * cpuacct or v2), so the CPU of every process it started is counted, even of those killed by process
 * group and never waited for (wrangler's workerd, Chromium's renderers). Otherwise bash's `times` sums
 * only the children waited for: a lower bound, printed as such.
 */
function cpuCgroupOf(layer: string): { dir: string; usageFile: string } | undefined {
  const name = `qoda-test-${layer}-${process.pid}`;
  if (existsSync("/sys/fs/cgroup/cpuacct/cpuacct.usage")) return { dir: `/sys/fs/cgroup/cpuacct/${name}`, usageFile: "cpuacct.usage" };
  if (existsSync("/sys/fs/cgroup/cgroup.controllers")) return { dir: `/sys/fs/cgroup/${name}`, usageFile: "cpu.stat" };
  return undefined;
}

// bash joins the layer's cgroup (if it can) before starting the command, so everything the command
// starts is counted there; afterwards it leaves and removes the group.
const MEASURED = `
cg=""
if [ -n "$CPU_CGROUP" ] && mkdir "$CPU_CGROUP" 2>/dev/null; then
  if echo $$ > "$CPU_CGROUP/cgroup.procs" 2>/dev/null; then cg="$CPU_CGROUP"; else rmdir "$CPU_CGROUP"; fi
fi
"$@"; status=$?
times > "$CPU_FILE"
if [ -n "$cg" ]; then
  cat "$cg/$CPU_USAGE_FILE" > "$CPU_FILE.cgroup"
  echo $$ > "$(dirname "$cg")/cgroup.procs"
  rmdir "$cg" 2>/dev/null
fi
exit $status`;

/** Runs one command to its end with its output prefixed and kept in a log, and measures the CPU its processes used. */
function runMeasured(layer: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  const cpuFile = join(reportsDir, `${layer}.cpu`);
  const cgroup = cpuCgroupOf(layer);
  const log = createWriteStream(join(reportsDir, `${layer}.log`));
  const child = spawn("bash", ["-c", MEASURED, "bash", command, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...env, CPU_FILE: cpuFile, CPU_CGROUP: cgroup?.dir ?? "", CPU_USAGE_FILE: cgroup?.usageFile ?? "", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on("line", (line) => {
      log.write(`${line}\n`);
      console.log(`[${layer}] ${line}`);
    });
  return new Promise<{ status: number | null; cpu: Cpu | undefined }>((resolve) => {
    child.on("close", (status) => {
      log.end();
      resolve({ status, cpu: cpuOf(cpuFile) });
    });
  });
}

/** Seconds of CPU, and whether every process was counted or only those waited for. */
type Cpu = { seconds: number; everyProcess: boolean };

function cpuOf(cpuFile: string): Cpu | undefined {
  const cgroupFile = `${cpuFile}.cgroup`;
  if (existsSync(cgroupFile)) {
    const text = readFileSync(cgroupFile, "utf8");
    // v1's cpuacct.usage is nanoseconds; v2's cpu.stat has a usage_usec line.
    const usec = /usage_usec (\d+)/.exec(text);
    const seconds = usec ? Number(usec[1]) / 1e6 : Number(text.trim()) / 1e9;
    if (Number.isFinite(seconds) && seconds > 0) return { seconds, everyProcess: true };
  }
  if (!existsSync(cpuFile)) return undefined;
  // bash's `times`: its second line is the children's user and system time (`0m12.340s 0m1.200s`).
  const childrenLine = readFileSync(cpuFile, "utf8").trim().split("\n")[1] ?? "";
  const times = [...childrenLine.matchAll(/(\d+)m([\d.]+)s/g)].map(([, minutes, secs]) => Number(minutes) * 60 + Number(secs));
  return times.length === 2 ? { seconds: times[0]! + times[1]!, everyProcess: false } : undefined;
}

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

function slowestFilesOf(report: VitestReport): string[] {
  return report.testResults
    .map((file) => ({ name: relative(PROJECT_ROOT, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES)
    .map((file) => `    ${file.seconds.toFixed(0).padStart(4)} s  ${file.name}`);
}

const cpuText = (cpu: Cpu | undefined) =>
  cpu === undefined ? "CPU unknown" : `CPU ${cpu.everyProcess ? "" : "at least "}${Math.round(cpu.seconds)} s`;

async function vitestLayer(layer: string, title: string, config: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const reportPath = join(reportsDir, `${layer}.json`);
  const layerStartedMs = Date.now();
  const run = await runMeasured(
    layer,
    "npx",
    ["vitest", "run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath}`],
    env,
  );
  const took = `${seconds(layerStartedMs)}, ${cpuText(run.cpu)}`;
  if (!existsSync(reportPath))
    return { passed: 0, failed: 1, lines: [`${title}: no report (vitest exited with ${run.status}) in ${took}`] };
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as VitestReport;
  // A layer that ran nothing, or exited non-zero with no failed test (a crash in setup), counts as a failure.
  const failed = report.numFailedTests + (run.status !== 0 && report.numFailedTests === 0 ? 1 : 0) + (report.numTotalTests === 0 ? 1 : 0);
  return {
    passed: report.numPassedTests,
    failed,
    lines: [
      `${title}: ${report.numPassedTests} passed, ${failed} failed in ${took}; slowest files:`,
      ...slowestFilesOf(report),
      ...failuresOf(report),
    ],
  };
}

/** The journeys' failures and slow requests, as the journeys wrote them. */
function journeyReport(): string[] {
  if (!existsSync(journeyFailuresFile)) return [];
  const reported = readFileSync(journeyFailuresFile, "utf8").trimEnd().split("\n");
  const more = reported.length - JOURNEY_REPORT_LINES;
  return [
    ...reported.slice(0, JOURNEY_REPORT_LINES).map((line) => `    ${line}`),
    ...(more > 0 ? [`    (${more} more lines in ${relative(PROJECT_ROOT, journeyFailuresFile)})`] : []),
  ];
}

// The size budgets and the accessibility audit of every page: the app was built by `pretest`, so the
// bench measures that very build.
async function sizeAndAccessibility(env: NodeJS.ProcessEnv): Promise<Outcome> {
  const sizesStartedMs = Date.now();
  const sizesReport = join(reportsDir, "size.json");
  const run = await runMeasured("size", "node", ["scripts/bench-size.ts", "--no-build", "--report", sizesReport], env);
  const took = `${seconds(sizesStartedMs)}, ${cpuText(run.cpu)}`;
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
  const passed = checks.filter((check) => check.ok).length;
  return {
    passed,
    failed: checks.length - passed,
    lines: [
      ...(found ? [] : [`size run: no report (exited with ${run.status})`]),
      ...checks.map((check) => `${check.name}: ${check.ok ? "1 passed, 0 failed" : "0 passed, 1 failed"} in ${took}`),
    ],
  };
}

// Migrated and seeded once, as the lanes start: the journeys' servers, the crash test and the size run
// copy it. If that fails, each seeds its own and says why it could not.
const seedingStartedMs = Date.now();
const seeding = seededState().then(
  (seeded) => ({ seeded, line: `seeding the local state: ${seconds(seedingStartedMs)}` }),
  (error: unknown) => {
    console.error(`Seeding the shared local state failed; each layer seeds its own.\n${String(error)}`);
    return { seeded: undefined, line: `seeding the local state failed after ${seconds(seedingStartedMs)}` };
  },
);
const seededEnv = async () => {
  const { seeded } = await seeding;
  return { ...baseEnv, ...(seeded ? { [SEEDED_STATE_VARIABLE]: seeded } : {}) };
};

// The lanes are about as long as each other: the journeys alone, against the Workers tests.
async function workersLane(): Promise<Outcome[]> {
  const unit = await vitestLayer("unit", "domain unit tests", "vitest.unit.config.ts", baseEnv);
  // The crash test waits on its server's restarts more than it computes: beside the Workers tests, not after them.
  const [workers, crash] = await Promise.all([
    vitestLayer("workers", "Workers-runtime tests", "vitest.config.ts", baseEnv),
    seededEnv().then((env) => vitestLayer("crash", "crash test (a server killed mid-operation)", "vitest.crash.config.ts", env)),
  ]);
  return [unit, workers, crash];
}

async function browserLane(): Promise<Outcome[]> {
  const journeys = await vitestLayer("journeys", "browser journeys", "vitest.e2e.config.ts", await seededEnv());
  journeys.lines.push(...journeyReport());
  return [{ passed: 0, failed: 0, lines: [(await seeding).line] }, journeys];
}

// The size run follows whichever lane ends first: which one that is depends on the machine.
const lanes = [workersLane(), browserLane()];
const sizes = Promise.race(lanes).then(async () => sizeAndAccessibility(await seededEnv()));
const outcomes = [...(await Promise.all(lanes)).flat(), await sizes];
const { seeded } = await seeding;
if (seeded) rmSync(seeded, { recursive: true, force: true });
const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
console.log(`\n${outcomes.flatMap((outcome) => outcome.lines).join("\n")}`);
console.log(`all layers: ${seconds(startedMs)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
