// Starts the app for the browser journeys: fresh local D1/R2/rooms, migrated and seeded once (by
// `npm test`, which hands the directory over, or here), copied for each server, served by `wrangler dev`;
// stopped by PID afterwards. Two servers: the journeys' own on E2E_PORT with the real payment window,
// and one with a 5-second window for the journey that watches a window close, so no other journey
// waits on it and that one waits seconds, not a minute.
import { appendFileSync, existsSync, rmSync } from "node:fs";

import type { TestProject } from "vitest/node";

import { PAYMENT_WINDOW_MS } from "../../app/domain/constants";
import { ensureChromium } from "../support/chromium";
import {
  copyState,
  type DevServer,
  freePort,
  SEEDED_STATE_VARIABLE,
  seededState,
  staleBuildReason,
  startDevServer,
} from "../support/local-stack";

// One fixed port per run; E2E_PORT lets a second checkout run its journeys beside this one.
const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
/** The shortest window the app accepts: long enough to reach the payment page, short enough to watch it close. */
const SHORT_PAYMENT_WINDOW_SECONDS = 5;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    paymentWindowSeconds: number;
    /** A server like `baseUrl`'s, with its own copy of the seeded state and a 5-second payment window. */
    shortWindowBaseUrl: string;
    shortPaymentWindowSeconds: number;
  }
}

const servers: DevServer[] = [];
const stateDirs: string[] = [];

export async function setup(project: TestProject) {
  const stale = staleBuildReason();
  if (stale) throw new Error(stale);
  ensureChromium();
  const handedOver = process.env[SEEDED_STATE_VARIABLE];
  const seeded = handedOver && existsSync(handedOver) ? handedOver : await seededState({ quiet: true });
  if (seeded !== handedOver) stateDirs.push(seeded);
  const serve = async (port: number, inspectorPort: number, vars: Record<string, string>) => {
    const stateDir = await copyState(seeded, "qoda-e2e-");
    stateDirs.push(stateDir);
    const server = await startDevServer({
      port,
      inspectorPort,
      persistTo: stateDir,
      // The journeys play Cloudflare's edge: each browser sends its own CF-Connecting-IP.
      vars: { APP_ENV: "test", SESSION_SECRET: crypto.randomUUID() + crypto.randomUUID(), TRUST_CF_CONNECTING_IP: "true", ...vars },
    });
    servers.push(server);
    return server;
  };
  const [main, shortWindow] = await Promise.all([
    serve(E2E_PORT, E2E_PORT + 1000, {}),
    Promise.all([freePort(), freePort()]).then(([port, inspectorPort]) =>
      serve(port, inspectorPort, { PAYMENT_WINDOW_SECONDS: String(SHORT_PAYMENT_WINDOW_SECONDS) }),
    ),
  ]);
  project.provide("baseUrl", main.url);
  project.provide("paymentWindowSeconds", PAYMENT_WINDOW_MS / 1000);
  project.provide("shortWindowBaseUrl", shortWindow.url);
  project.provide("shortPaymentWindowSeconds", SHORT_PAYMENT_WINDOW_SECONDS);
}

/** A request answered after this long is printed at the end: a journey that stalled finds its cause there. */
const SLOW_REQUEST_MS = 5_000;

export async function teardown() {
  for (const server of servers) {
    const slow = server.slowRequests(SLOW_REQUEST_MS);
    if (!slow.length) continue;
    const report = `Requests answered after ${SLOW_REQUEST_MS / 1000} s or more by ${server.url}:\n${slow.join("\n")}`;
    console.warn(report);
    // npm test prints this file in its summary (test/e2e/journey.ts writes failed journeys there too).
    if (process.env.JOURNEY_FAILURES_FILE) appendFileSync(process.env.JOURNEY_FAILURES_FILE, `${report}\n`);
  }
  await Promise.all(servers.map((server) => server.stop()));
  for (const stateDir of stateDirs) rmSync(stateDir, { recursive: true, force: true });
}
