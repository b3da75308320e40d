// The local stack that `npm start` and the browser tests share: build, migrate and seed the local D1,
// then serve the Worker with `wrangler dev`. Everything is local (miniflare); nothing reaches a cloud.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { buildSeedSql, DEMO_REGISTRATIONS, licencePdf } from "./demo-data.ts";

export const PROJECT_ROOT = new URL("..", import.meta.url).pathname;

/** Offline: no metrics, no lookups of Cloudflare's edge data. */
const OFFLINE_ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

export function run(command: string, args: string[], { quiet = false } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: OFFLINE_ENV, stdio: quiet ? "pipe" : "inherit" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${output}`))));
  });
}

const persistArgs = (persistTo?: string) => (persistTo ? ["--persist-to", persistTo] : []);

export const build = (options?: { quiet?: boolean }) => run("remix", ["vite:build"], options);

export const applyMigrations = (persistTo?: string, options?: { quiet?: boolean }) =>
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...persistArgs(persistTo)], options);

export async function seedDemoData(persistTo?: string, options?: { quiet?: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), "qoda-seed-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, await buildSeedSql(new Date()));
  await run("wrangler", ["d1", "execute", "DB", "--local", `--file=${file}`, ...persistArgs(persistTo)], options);
  // The demo applications' licence files, so admins can open them (the same keys again: same files).
  for (const registration of DEMO_REGISTRATIONS) {
    const licence = join(dir, registration.licenceName);
    writeFileSync(licence, licencePdf(registration.fullName));
    await run(
      "wrangler",
      [
        "r2",
        "object",
        "put",
        `qoda-files/${registration.licenceKey}`,
        "--local",
        `--file=${licence}`,
        "--content-type=application/pdf",
        ...persistArgs(persistTo),
      ],
      options,
    );
  }
}

export interface DevServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `wrangler dev` in its own process group and resolves once /health answers. */
export async function startDevServer(options: {
  port: number;
  persistTo?: string;
  vars?: Record<string, string>;
  inheritOutput?: boolean;
  readyTimeoutMs?: number;
}): Promise<DevServer> {
  const varArgs = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const child = spawn(
    "wrangler",
    [
      "dev",
      "--port",
      String(options.port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(options.port + 1000),
      "--show-interactive-dev-session=false",
      ...persistArgs(options.persistTo),
      ...varArgs,
    ],
    { cwd: PROJECT_ROOT, env: OFFLINE_ENV, stdio: options.inheritOutput ? "inherit" : "pipe", detached: true },
  );
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

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return { url, process: child, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not become ready on ${url}\n${output}`);
}
