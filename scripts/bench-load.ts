// `npm run bench:load`: a bounded mixed load on the whole app, then a check that nothing was lost or
// doubled. Serves the built app with `wrangler dev` on 127.0.0.1:8895 (or BENCH_PORT) with fresh local
// state seeded with 10,000 paid, ended and released consultations, 1,000 patients and 100 doctors with
// payout details. BENCH_USERS virtual users (default 12) loop for BENCH_SECONDS (default 30, at most 60;
// requests in flight then finish) over a weighted mix: mostly dashboards, lists and /health, and now and
// then a request's whole life, with the doubles real people make (the form sent twice, two doctors
// racing to accept, Pay and the return twice, a failed payment paid again, chat both ways, end, release
// tapped twice); an admin runs payouts every 10 s. Prints throughput, p50 and p99 per action, errors
// with a sample, the dashboards' throughput against /health's, then checks the books and the chats.
// Exits non-zero when a target is missed: any error, anything lost or doubled, or dashboards below 0.8
// of /health.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

import { percentile, serveSeeded } from "../test/support/bench-stack.ts";
import { benchPort } from "../test/support/local-stack.ts";
import { type Check, integrityChecks } from "./bench-load-checks.ts";
import { type Account, lifecycle, LoadClient, LoadRecord, payoutRun, read, type READS } from "./bench-load-flows.ts";
import { loadPlatform } from "./bench-load-seed.ts";

const PORT = benchPort(8895);
const USERS = Number(process.env.BENCH_USERS ?? 12);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const MAX_SECONDS = 60;
const COUNTS = { doctors: 100, patients: 1_000, consultations: 10_000 };
/** Of a user's turns, the share that takes a request through its whole life (the rest are reads). */
const LIFECYCLE_SHARE = 0.05;
/** How often a read picks each page. */
const READ_WEIGHTS: Record<keyof typeof READS, number> = {
  "GET /health": 2,
  "GET /patient/dashboard": 2,
  "GET /patient/consultations": 1,
  "GET /doctor/dashboard": 2,
  "GET /doctor/consultations": 1,
};
const PAYOUT_EVERY_MS = 10_000;
const DASHBOARDS = ["GET /patient/dashboard", "GET /doctor/dashboard"];
const BARE = "GET /health";
const MIN_DASHBOARD_RATIO = 0.8;

const pick = <Item>(items: Item[]) => items[Math.floor(Math.random() * items.length)]!;

function pickRead(): keyof typeof READS {
  const entries = Object.entries(READ_WEIGHTS) as Array<[keyof typeof READS, number]>;
  let roll = Math.random() * entries.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [action, weight] of entries) {
    roll -= weight;
    if (roll < 0) return action;
  }
  return BARE;
}

/** Two different doctors, to race for one request. */
function twoDoctors(doctors: Account[]): [Account, Account] {
  const first = Math.floor(Math.random() * doctors.length);
  const second = (first + 1 + Math.floor(Math.random() * (doctors.length - 1))) % doctors.length;
  return [doctors[first]!, doctors[second]!];
}

/**
 * One user's loop until `untilMs`. Its requests go to its own share of the patients (user `index` of
 * `users` takes every users-th one), so no two users submit for the same patient at once.
 */
async function virtualUser(client: LoadClient, index: number, untilMs: number, people: { patients: Account[]; doctors: Account[] }) {
  let turn = 0;
  while (performance.now() < untilMs) {
    turn += 1;
    if (Math.random() < LIFECYCLE_SHARE) {
      const patient = people.patients[(index + USERS * turn) % people.patients.length]!;
      const title = `Load ${index}-${turn} ${randomUUID().slice(0, 8)}: itchy rash on the forearm`;
      await lifecycle(client, patient, twoDoctors(people.doctors), title);
    } else {
      await read(client, pickRead(), { patient: pick(people.patients), doctor: pick(people.doctors) });
    }
  }
}

/** The admin's payout runs, every PAYOUT_EVERY_MS until `untilMs`, one at a time (a run that overran is not made up for). */
async function payoutRuns(client: LoadClient, admin: Account, untilMs: number) {
  let nextMs = performance.now() + PAYOUT_EVERY_MS / 2;
  while (nextMs < untilMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextMs - performance.now())));
    await payoutRun(client, admin);
    nextMs = Math.max(nextMs + PAYOUT_EVERY_MS, performance.now());
  }
}

/** Requests per second of time spent waiting for them: what one user looping only this action would get. */
function inFlightThroughput(latenciesMs: number[]) {
  const busyMs = latenciesMs.reduce((sum, ms) => sum + ms, 0);
  return busyMs === 0 ? 0 : (latenciesMs.length / busyMs) * 1000;
}

function printTable(record: LoadRecord, seconds: number) {
  const actions = [...new Set([...record.latenciesMs.keys(), ...record.errors.keys()])];
  console.log(
    `\n${"action".padEnd(28)}${"count".padStart(7)}${"per s".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"errors".padStart(8)}`,
  );
  for (const action of actions) {
    const sorted = [...(record.latenciesMs.get(action) ?? [])].sort((a, b) => a - b);
    const at = (fraction: number) => (sorted.length ? percentile(sorted, fraction).toFixed(1) : "-");
    console.log(
      `${action.padEnd(28)}${String(sorted.length).padStart(7)}${(sorted.length / seconds).toFixed(1).padStart(8)}` +
        `${at(0.5).padStart(9)}${at(0.99).padStart(9)}${String(record.errors.get(action)?.count ?? 0).padStart(8)}`,
    );
  }
  const all = [...record.latenciesMs.values()].flat();
  console.log(`${"all".padEnd(28)}${String(all.length).padStart(7)}${(all.length / seconds).toFixed(1).padStart(8)}`);
  for (const [action, { count, sample }] of record.errors) console.log(`  error ${action} (${count}): ${sample}`);
}

/** Dashboards' in-flight throughput over /health's, in the same run. */
function dashboardRatio(record: LoadRecord) {
  const dashboards = inFlightThroughput(DASHBOARDS.flatMap((action) => record.latenciesMs.get(action) ?? []));
  const bare = inFlightThroughput(record.latenciesMs.get(BARE) ?? []);
  const ratio = bare === 0 ? 0 : dashboards / bare;
  console.log(
    `\ndashboard/bare throughput ratio: ${ratio.toFixed(2)} (dashboards ${dashboards.toFixed(1)}/s, /health ${bare.toFixed(1)}/s ` +
      `per user while in flight; target ≥ ${MIN_DASHBOARD_RATIO})`,
  );
  return ratio;
}

function printChecks(checks: Check[]) {
  console.log("\nIntegrity:");
  for (const check of checks) console.log(`  ${check.ok ? "OK   " : "WRONG"} ${check.name}: ${check.detail}`);
}

if (!(SECONDS > 0 && SECONDS <= MAX_SECONDS)) {
  console.error(`BENCH_SECONDS must be more than 0 and at most ${MAX_SECONDS} (it is ${process.env.BENCH_SECONDS}).`);
  process.exit(2);
}

const stateDir = mkdtempSync(join(tmpdir(), "qoda-bench-load-"));
let stop: (() => Promise<void>) | undefined;
try {
  const platform = loadPlatform(COUNTS, Date.now());
  const server = await serveSeeded(PORT, stateDir, platform.statements);
  stop = server.stop;
  console.log(
    `Seeded ${COUNTS.consultations} consultations (paid, ended, released), ${COUNTS.patients} patients, ${COUNTS.doctors} doctors. ` +
      `${USERS} users for ${SECONDS} s against ${server.url} (${cpus().length} cores, ${cpus()[0]?.model ?? "unknown CPU"}).`,
  );

  const client = new LoadClient(server.url, new LoadRecord());
  const startedAtMs = performance.now();
  const untilMs = startedAtMs + SECONDS * 1000;
  await Promise.all([
    ...Array.from({ length: USERS }, (_, index) => virtualUser(client, index, untilMs, platform)),
    payoutRuns(client, platform.admin, untilMs),
  ]);
  const seconds = (performance.now() - startedAtMs) / 1000;
  console.log(`\nIssued for ${SECONDS} s; the last answer came after ${seconds.toFixed(1)} s (per second below: over that time).`);

  const errors = [...client.record.errors.values()].reduce((sum, { count }) => sum + count, 0);
  printTable(client.record, seconds);
  const ratio = dashboardRatio(client.record);
  const checks = await integrityChecks(stateDir, client);
  printChecks(checks);
  const missed = [
    ...(errors > 0 ? [`${errors} errors`] : []),
    ...checks.filter((check) => !check.ok).map((check) => check.name),
    ...(ratio < MIN_DASHBOARD_RATIO ? ["dashboard ratio"] : []),
  ];
  console.log(missed.length ? `\nMissed: ${missed.join("; ")}` : "\nAll targets met.");
  if (missed.length) process.exitCode = 1;
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
