// The local stack that `npm start` and the browser tests share: build, migrate and seed the local D1,
// then serve the Worker with `wrangler dev`. Everything is local (miniflare); nothing reaches a cloud.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { getPlatformProxy } from "wrangler";

import { PROJECT_ROOT } from "./build-freshness.ts";
import {
  DEMO_PHOTOS,
  DEMO_REGISTRATIONS,
  demoDoctorPictures,
  demoPhotoPng,
  demoRows,
  demoSandboxRecords,
  licencePdf,
} from "./demo-data.ts";

export { PROJECT_ROOT };

/** Offline: no metrics, no lookups of Cloudflare's edge data. */
const OFFLINE_ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

export async function run(command: string, args: string[], { quiet = false } = {}): Promise<void> {
  if (quiet) {
    await runForOutput(command, args);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: OFFLINE_ENV, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

/** Runs a command quietly and resolves with what it printed (stdout and stderr), or rejects with it. */
export function runForOutput(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: OFFLINE_ENV, stdio: "pipe" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${output}`)),
    );
  });
}

/** The rows one SQL statement returns from a local D1 kept in `persistTo` (`wrangler d1 execute --json`). */
export async function queryLocalD1<Row>(persistTo: string, sql: string): Promise<Row[]> {
  const printed = await runForOutput("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql]);
  return (JSON.parse(printed) as Array<{ results: Row[] }>)[0]!.results;
}

const persistArgs = (persistTo?: string) => (persistTo ? ["--persist-to", persistTo] : []);

export const build = (options?: { quiet?: boolean }) => run("remix", ["vite:build"], options);

export const applyMigrations = (persistTo?: string, options?: { quiet?: boolean }) =>
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...persistArgs(persistTo)], options);

type LocalPlatform = { DB: D1Database; FILES: R2Bucket };

/**
 * The local D1 and R2 that `wrangler dev --persist-to <persistTo>` serves (`.wrangler/state` by default),
 * opened in this process for `work`: one platform for a whole seed, where a wrangler command per file cost
 * 3 s of CPU each, most of a seed's minute.
 */
async function withLocalPlatform(persistTo: string | undefined, work: (platform: LocalPlatform) => Promise<void>) {
  // Offline, as for every wrangler command here, and quiet: the platform has D1 and R2 but no Worker (the
  // Durable Objects' classes live in the app's), which wrangler warns about and workerd reports as an error.
  const quietOffline = { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "error" };
  const before = Object.fromEntries(Object.keys(quietOffline).map((name) => [name, process.env[name]]));
  Object.assign(process.env, quietOffline);
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    if (!String(args[0]).includes("no such Durable Object class is exported")) consoleError(...args);
  };
  try {
    const platform = await getPlatformProxy<LocalPlatform>({
      configPath: join(PROJECT_ROOT, "wrangler.toml"),
      persist: { path: join(persistTo ?? join(PROJECT_ROOT, ".wrangler", "state"), "v3") },
      remoteBindings: false,
    });
    try {
      await work(platform.env);
    } finally {
      await platform.dispose();
    }
  } finally {
    console.error = consoleError;
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/**
 * Applies migrations/ as `wrangler d1 migrations apply` does (each migration and its row in
 * d1_migrations in one batch), so wrangler later sees them applied.
 */
async function migrate({ DB }: LocalPlatform) {
  await DB.prepare(
    "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
  ).run();
  const applied = new Set((await DB.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((row) => row.name));
  for (const migration of await readD1Migrations(join(PROJECT_ROOT, "migrations"))) {
    if (applied.has(migration.name)) continue;
    await DB.batch([
      ...migration.queries.map((query) => DB.prepare(query)),
      DB.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
    ]);
  }
}

/** Writes the demo's rows into D1 and its files into R2. */
async function seed({ DB, FILES }: LocalPlatform) {
  const now = new Date();
  // One batch: all the rows or none.
  await DB.batch((await demoRows(now)).map(({ sql }) => DB.prepare(sql)));
  const files = [
    // What the payment sandbox keeps of every paid demo payment, so refunding one (the open dispute, the
    // late payment asked again) finds its transaction.
    ...demoSandboxRecords(now).map(({ key, record }) => ({ key, body: JSON.stringify(record), contentType: "application/json" })),
    // The demo doctors' pictures, as patients see them on the card before paying.
    ...demoDoctorPictures().map(({ key, png }) => ({ key, body: png, contentType: "image/png" })),
    // The demo's request photos, so doctors (and their patients) see them.
    ...DEMO_PHOTOS.map((photo) => ({ key: photo.storageKey, body: demoPhotoPng(photo.spotRadius), contentType: "image/png" })),
    // The demo applications' licence files, so admins can open them.
    ...DEMO_REGISTRATIONS.map((registration) => ({
      key: registration.licenceKey,
      body: licencePdf(registration.fullName),
      contentType: "application/pdf",
    })),
  ];
  for (const { key, body, contentType } of files) await FILES.put(key, body, { httpMetadata: { contentType } });
}

/** Seeds the local state `npm start` serves (its migrations applied by wrangler first). */
export const seedDemoData = (persistTo?: string) => withLocalPlatform(persistTo, seed);

/**
 * Migrates and seeds a new state directory once; `copyState` then gives each server its own copy, so
 * several servers (the journeys', the payment-expiry one, the size bench's) start from the same rows
 * without running wrangler again for each.
 */
export async function seededState() {
  const stateDir = mkdtempSync(join(tmpdir(), "qoda-seeded-"));
  await withLocalPlatform(stateDir, async (platform) => {
    await migrate(platform);
    await seed(platform);
  });
  writeFileSync(join(stateDir, SEEDED_AT_FILE), String(Date.now()));
  return stateDir;
}

/** When a seeded state's rows were written (their times are relative to that moment). */
const SEEDED_AT_FILE = "seeded-at-ms";

/**
 * A server's own copy of a seeded state, its open payment windows moved on by the time since seeding:
 * the demo's 15-minute windows are as long when the server starts as when they were seeded, however
 * long a test run took to get there.
 */
export async function copyState(from: string, prefix = "qoda-state-") {
  const stateDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(from, stateDir, { recursive: true });
  const seededAtFile = join(from, SEEDED_AT_FILE);
  const seededAtMs = existsSync(seededAtFile) ? Number(readFileSync(seededAtFile, "utf8")) : Number.NaN;
  const sinceMs = Date.now() - seededAtMs;
  if (Number.isSafeInteger(seededAtMs) && sinceMs > 0)
    await queryLocalD1(
      stateDir,
      // The copy's clock, not a consultation's move: no status changes, only when a window ends.
      // eslint-disable-next-line qoda/one-writer
      `UPDATE consultations SET payment_deadline_at = payment_deadline_at + ${sinceMs} WHERE status = 'accepted_awaiting_payment' AND payment_deadline_at IS NOT NULL`,
    );
  return stateDir;
}

/** `npm test` seeds once and hands the directory to the journeys and the size bench through this variable. */
export const SEEDED_STATE_VARIABLE = "QODA_SEEDED_STATE";

/** A port the system says is free now (for a server nobody needs to find by a fixed number). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** `count` different free ports: every probe stays open until all are chosen, so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    probes.map(
      (probe) =>
        new Promise<number>((resolve, reject) => {
          probe.once("error", reject);
          probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port));
        }),
    ),
  );
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

/** A bench's port: its own default, or BENCH_PORT, so two checkouts can run the same bench side by side. */
export const benchPort = (defaultPort: number) => Number(process.env.BENCH_PORT ?? defaultPort);

export interface DevServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** The requests wrangler logged as answered after `thresholdMs` or more, as it logged them. */
  slowRequests(thresholdMs: number): string[];
}

/** wrangler's request log line: `POST /register 303 See Other (1234ms)`, in colour. */
const REQUEST_LOG_LINE = /^(?:\[wrangler:info\] )?[A-Z]+ \S+ \d{3}\b.*\((\d+)ms\)\s*$/;

function slowRequestLines(output: string, thresholdMs: number): string[] {
  return output
    .split("\n")
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => Number(REQUEST_LOG_LINE.exec(line)?.[1] ?? 0) >= thresholdMs);
}

/**
 * The process groups of the servers started here and still running: wrangler runs detached (so a crash
 * test can kill its whole group), so it would outlive a runner that exits before stopping it (a setup
 * past its time limit). They are killed when this process exits.
 */
const runningServerGroups = new Set<number>();
process.once("exit", () => {
  for (const group of runningServerGroups)
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone.
    }
});

/**
 * How long a server may take to answer /health: a hang detector, not a stopwatch. Its first /health
 * took 8 s in a CI run beside the other lane, and a loaded machine is slower still.
 */
const SERVER_READY_LIMIT_MS = 180_000;

/** Starts `wrangler dev` in its own process group and resolves once /health answers. */
export async function startDevServer(options: {
  port: number;
  /** The debugger's port; 1000 above `port` unless given. */
  inspectorPort?: number;
  persistTo?: string;
  /** A wrangler configuration other than the project's (a bench's own Worker). */
  configPath?: string;
  vars?: Record<string, string>;
  inheritOutput?: boolean;
  /** Serves /__scheduled, which runs the scheduled job (the cron's housekeeping) on request. */
  testScheduled?: boolean;
  /**
   * Keeps wrangler's local traces (a span for every D1 call and storage operation, collected on the
   * Worker's own thread for the local explorer): on for `npm start`, off for tests and benches, where
   * the collector cost more than the app (bench:chat's p99 went from 465 to 134 ms without it).
   */
  localTraces?: boolean;
}): Promise<DevServer> {
  // The site's own address, for the links the scheduled job writes (a late payment's mail).
  const vars = { SITE_URL: `http://localhost:${options.port}`, ...options.vars };
  const varArgs = Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const child = spawn(
    "wrangler",
    [
      "dev",
      "--port",
      String(options.port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(options.inspectorPort ?? options.port + 1000),
      "--show-interactive-dev-session=false",
      ...(options.configPath ? ["--config", options.configPath] : []),
      ...(options.testScheduled ? ["--test-scheduled"] : []),
      ...persistArgs(options.persistTo),
      ...varArgs,
    ],
    {
      cwd: PROJECT_ROOT,
      env: options.localTraces ? OFFLINE_ENV : { ...OFFLINE_ENV, X_LOCAL_OBSERVABILITY: "false" },
      stdio: options.inheritOutput ? "inherit" : "pipe",
      detached: true,
    },
  );
  const group = child.pid;
  if (group !== undefined) {
    runningServerGroups.add(group);
    child.once("exit", () => runningServerGroups.delete(group));
  }
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://localhost:${options.port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.pid === undefined) return resolve();
      child.once("exit", () => resolve());
      process.kill(-child.pid, "SIGTERM");
      setTimeout(() => child.exitCode === null && child.pid && process.kill(-child.pid, "SIGKILL"), 5_000).unref();
    });

  const deadline = Date.now() + SERVER_READY_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return { url, process: child, stop, slowRequests: (thresholdMs) => slowRequestLines(output, thresholdMs) };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not become ready on ${url}\n${output}`);
}

/**
 * A bench's server: the app built (unless `--no-build`), migrated and seeded into a state of its own,
 * served by `wrangler dev` on `port` with a fresh session secret. `stop` ends it and deletes the state.
 */
export async function startBenchServer(port: number): Promise<Pick<DevServer, "url" | "stop">> {
  if (!process.argv.includes("--no-build")) await build({ quiet: true });
  const stateDir = await seededState();
  const forget = () => rmSync(stateDir, { recursive: true, force: true });
  const server = await startDevServer({
    port,
    persistTo: stateDir,
    vars: { APP_ENV: "test", SESSION_SECRET: `${crypto.randomUUID()}${crypto.randomUUID()}` },
  }).catch((error: unknown) => {
    forget();
    throw error;
  });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      forget();
    },
  };
}
