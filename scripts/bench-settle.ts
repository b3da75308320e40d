// `npm run bench:settle`: how the scheduled release of escrow copes with a backlog. Serves its own Worker
// (scripts/bench-settle-worker.ts: the real releaseDueEscrows, its D1 wrapped to count) with `wrangler dev`
// on port 8899 (or BENCH_PORT; its DevTools port BENCH_INSPECTOR_PORT, else 1000 above) and fresh local
// state in a temp dir, seeds 10,000 consultations (or
// BENCH_CONSULTATIONS) completed, paid, their fee held in escrow and due for release (ended over 72 hours
// ago), with the ledger's capture entries, then runs the release, one run at a time as the cron would,
// until none is due (since ADR 0044 one run settles them all). Prints each run's time, releases and D1 work, the CPU time against the Workers
// limit, and a check of the books: one release entry per consultation, the journal summing to zero.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { paidConsultationInserts, paidConsultationRows } from "../test/support/bench-seed.ts";
import { benchAccount } from "../test/support/bench-stack.ts";
import { benchPort, PROJECT_ROOT, run, startDevServer } from "../test/support/local-stack.ts";

const PORT = benchPort(8899);
/** Wrangler's DevTools port, through which the Worker's CPU is profiled. */
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT ?? PORT + 1000);
const DOCTORS = Number(process.env.BENCH_DOCTORS ?? 500);
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 2_000);
const CONSULTATIONS = Number(process.env.BENCH_CONSULTATIONS ?? 10_000);
const FEE_SANTIM = 15_000;
/** The sandbox's charge on a fee (3.5 %), as the capture entries record it. */
const CHARGE_SANTIM = 525;
const MINUTE_MS = 60_000;
const RELEASE_AFTER_MS = 72 * 60 * MINUTE_MS;
/** The CPU time a scheduled (cron) invocation may use by default on Workers Paid. */
const CPU_LIMIT_MS = 30_000;
/** D1's queries per Worker invocation on Workers Paid (whether a batch counts once or per statement, the limits page does not say). */
const D1_QUERIES_PER_INVOCATION = 1_000;
/** How often the cron runs the housekeeping that releases (wrangler.toml: every 15 minutes). */
const CRON_EVERY_MINUTES = 15;

interface RunFigures {
  released: number;
  held: number;
  tookMs: number;
  roundTrips: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  waitedMs: number;
}

/** The Worker's own configuration: D1 only, the project's migrations. */
function benchConfig(stateDir: string) {
  const path = join(stateDir, "wrangler.json");
  writeFileSync(
    path,
    JSON.stringify({
      name: "qoda-bench-settle",
      main: join(PROJECT_ROOT, "scripts", "bench-settle-worker.ts"),
      compatibility_date: "2026-11-01",
      compatibility_flags: ["nodejs_compat"],
      send_metrics: false,
      d1_databases: [
        {
          binding: "DB",
          database_name: "qoda",
          database_id: "00000000-0000-0000-0000-000000000000",
          migrations_dir: join(PROJECT_ROOT, "migrations"),
        },
      ],
    }),
  );
  return path;
}

/** Consultations ended 72 hours and a minute to a day more ago, paid, held in escrow, with their capture in the ledger. */
function seedStatements(now: number) {
  const doctors = Array.from({ length: DOCTORS }, (_, index) => benchAccount("doctor", index, now));
  const patients = Array.from({ length: PATIENTS }, (_, index) => benchAccount("patient", index, now));
  const paid = Array.from({ length: CONSULTATIONS }, (_, index) =>
    paidConsultationRows({
      patientId: patients[index % PATIENTS]!.id,
      doctorId: doctors[(index * 7) % DOCTORS]!.id,
      title: `Bench complaint ${index}: itchy patches on the arm`,
      txRef: `qoda-bench-${index}`,
      amountSantim: FEE_SANTIM,
      chargeSantim: CHARGE_SANTIM,
      completedAt: now - RELEASE_AFTER_MS - MINUTE_MS - (index % (24 * 60)) * MINUTE_MS,
      releasedAt: null,
    }),
  );
  return [...[...doctors, ...patients].flatMap((account) => account.statements), ...paidConsultationInserts(paid)];
}

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU time (user and system) used so far by the workerd processes of `groupId`, from /proc. */
function workerdCpuMs(groupId: number) {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // After the name: state, ppid, pgrp, ... utime (14th field of the line) and stime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (name === "workerd" && Number(fields[2]) === groupId) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_MS;
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

/**
 * The Worker's own CPU time, from V8's sampling profiler through wrangler's inspector (its DevTools
 * port): the time of the samples taken while the isolate was not idle, every 100 µs (which slows it a
 * little). Local D1's SQLite runs in miniflare's own isolate, as on Cloudflare it runs outside the
 * Worker; whatever of it shows in this isolate's samples as "(program)" is counted: an upper bound.
 */
async function workerProfiler(inspectorPort: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  // Wrangler's inspector takes DevTools clients from localhost pages only.
  const socket = new WebSocket(target!.webSocketDebuggerUrl, { headers: { Origin: "http://localhost" } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  const answers = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  let lastId = 0;
  const send = <Result>(method: string, params: object = {}) =>
    new Promise<Result>((resolve) => {
      lastId += 1;
      answers.set(lastId, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  return {
    /** Runs `work` under the profiler; its result, and the Worker's CPU time meanwhile in milliseconds. */
    async measure<Result>(work: () => Promise<Result>) {
      await send("Profiler.start");
      const result = await work();
      const { profile } = await send<{ profile: CpuProfile }>("Profiler.stop");
      const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id));
      const busyMicros = profile.samples.reduce((total, node, index) => total + (idle.has(node) ? 0 : profile.timeDeltas[index]!), 0);
      return { result, cpuMs: busyMicros / 1000 };
    },
    close: () => socket.close(),
  };
}

const stateDir = mkdtempSync(join(tmpdir(), "qoda-bench-settle-"));
let stop: (() => Promise<void>) | undefined;
try {
  const configPath = benchConfig(stateDir);
  const wrangler = (...args: string[]) => run("wrangler", [...args, "--config", configPath, "--persist-to", stateDir], { quiet: true });
  await wrangler("d1", "migrations", "apply", "DB", "--local");
  const seed = join(stateDir, "bench-seed.sql");
  writeFileSync(seed, seedStatements(Date.now()).join("\n"));
  await wrangler("d1", "execute", "DB", "--local", `--file=${seed}`);
  const server = await startDevServer({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo: stateDir, configPath });
  stop = server.stop;
  const groupId = server.process.pid!;
  const profiler = await workerProfiler(INSPECTOR_PORT);
  console.log(
    `Seeded ${CONSULTATIONS} consultations completed over 72 hours ago, paid and held in escrow (${DOCTORS} doctors, ${PATIENTS} patients).`,
  );

  const runs: Array<RunFigures & { wallMs: number; processCpuMs: number; workerCpuMs: number }> = [];
  const startedAt = performance.now();
  for (;;) {
    const cpuBefore = workerdCpuMs(groupId);
    const runStartedAt = performance.now();
    const { result: figures, cpuMs: workerCpuMs } = await profiler.measure(async () => {
      const response = await fetch(`${server.url}/release`, { method: "POST" });
      if (!response.ok) throw new Error(`the release answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as RunFigures;
    });
    const wallMs = performance.now() - runStartedAt;
    const processCpuMs = workerdCpuMs(groupId) - cpuBefore;
    runs.push({ ...figures, wallMs, processCpuMs, workerCpuMs });
    console.log(
      `Run ${runs.length}: released ${figures.released} in ${wallMs.toFixed(0)} ms (${figures.held} still held); ` +
        `D1: ${figures.roundTrips} round trips, ${figures.statements} statements, waited ${figures.waitedMs.toFixed(0)} ms, ` +
        `rows read ${figures.rowsRead}, written ${figures.rowsWritten}; CPU: Worker ${workerCpuMs.toFixed(0)} ms, workerd process ${processCpuMs.toFixed(0)} ms`,
    );
    if (figures.released === 0 || figures.held === 0) break;
  }
  const totalMs = performance.now() - startedAt;

  const working = runs.filter((one) => one.released > 0);
  const released = working.reduce((sum, one) => sum + one.released, 0);
  const sum = (pick: (one: RunFigures) => number) => runs.reduce((total, one) => total + pick(one), 0);
  profiler.close();
  const maxOf = (pick: (one: (typeof runs)[number]) => number) => Math.max(...runs.map(pick));
  const ofLimit = (ms: number) => `${((ms / CPU_LIMIT_MS) * 100).toFixed(1)} %`;
  console.log(`\nReleased ${released} of ${CONSULTATIONS} in ${runs.length} runs, ${(totalMs / 1000).toFixed(1)} s in all`);
  console.log(
    `  as the cron runs it (every ${CRON_EVERY_MINUTES} minutes), the backlog clears in ${((working.length * CRON_EVERY_MINUTES) / 60).toFixed(1)} hours`,
  );
  console.log(
    `  per run that released (one scheduled invocation): ${(released / working.length).toFixed(0)} consultations in ` +
      `${(working.reduce((total, one) => total + one.wallMs, 0) / working.length).toFixed(0)} ms, ` +
      `${(working.reduce((total, one) => total + one.statements, 0) / working.length).toFixed(0)} D1 statements`,
  );
  console.log(
    `  D1 per consultation: ${(sum((one) => one.statements) / released).toFixed(2)} statements in ${(sum((one) => one.roundTrips) / released).toFixed(3)} round trips; ` +
      `rows read ${(sum((one) => one.rowsRead) / released).toFixed(1)}, written ${(sum((one) => one.rowsWritten) / released).toFixed(1)}`,
  );
  const busiest = runs.reduce((most, one) => (one.statements > most.statements ? one : most));
  console.log(
    `  busiest run: ${busiest.roundTrips} D1 round trips holding ${busiest.statements} statements, against D1's ${D1_QUERIES_PER_INVOCATION} queries per invocation`,
  );
  console.log(
    `  CPU per run, against the ${CPU_LIMIT_MS / 1000} s a scheduled invocation may use: ` +
      `the Worker's at most ${maxOf((one) => one.workerCpuMs).toFixed(0)} ms (${ofLimit(maxOf((one) => one.workerCpuMs))}; V8's sampling profiler, busy samples); ` +
      `the whole workerd process's at most ${maxOf((one) => one.processCpuMs).toFixed(0)} ms (${ofLimit(maxOf((one) => one.processCpuMs))}; /proc, ` +
      `with local D1's SQLite, which on Cloudflare runs outside the Worker)`,
  );

  const books = (await (await fetch(`${server.url}/check`)).json()) as Record<string, number>;
  const once = books.releaseEntries === CONSULTATIONS && books.consultationsReleased === CONSULTATIONS && books.releasedTwice === 0;
  const balanced = books.journalSum === 0 && books.unbalancedEntries === 0 && books.releasedEscrowBalance === 0;
  console.log(
    `\nBooks: ${books.releaseEntries} escrow_released entries for ${books.consultationsReleased} consultations, ${books.releasedTwice} released twice, ` +
      `${books.releaseAudits} audit entries, ${books.held} still held; journal sums to ${books.journalSum}, ${books.unbalancedEntries} unbalanced entries, ` +
      `released escrows hold ${books.releasedEscrowBalance} santim: ${once && balanced ? "OK" : "WRONG"}`,
  );
  if (!once || !balanced) process.exitCode = 1;
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
