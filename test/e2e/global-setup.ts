// Starts the app once for all browser journeys: fresh local D1/R2/rooms in a temporary directory,
// migrated and seeded, served by `wrangler dev` on a port of its own; stopped by PID afterwards.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { applyMigrations, build, type DevServer, PROJECT_ROOT, seedDemoData, startDevServer } from "../../scripts/local-stack";
import { ensureChromium } from "./chromium";

// One fixed port per run; E2E_PORT lets a second checkout run its journeys beside this one.
const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
/** Short enough that a journey can watch a payment window close. */
const PAYMENT_WINDOW_SECONDS = 60;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    paymentWindowSeconds: number;
  }
}

let server: DevServer | undefined;
let stateDir: string | undefined;

export async function setup(project: TestProject) {
  ensureChromium();
  if (!existsSync(join(PROJECT_ROOT, "build", "server", "index.js"))) await build({ quiet: true });
  stateDir = mkdtempSync(join(tmpdir(), "qoda-e2e-"));
  await applyMigrations(stateDir, { quiet: true });
  await seedDemoData(stateDir, { quiet: true });
  server = await startDevServer({
    port: E2E_PORT,
    persistTo: stateDir,
    // The journeys play Cloudflare's edge: each browser sends its own CF-Connecting-IP.
    vars: {
      APP_ENV: "test",
      SESSION_SECRET: crypto.randomUUID() + crypto.randomUUID(),
      TRUST_CF_CONNECTING_IP: "true",
      PAYMENT_WINDOW_SECONDS: String(PAYMENT_WINDOW_SECONDS),
    },
  });
  project.provide("baseUrl", server.url);
  project.provide("paymentWindowSeconds", PAYMENT_WINDOW_SECONDS);
}

export async function teardown() {
  await server?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}
