// Starts the app for the browser journeys: fresh local D1/R2/rooms, migrated and seeded once (by
// `npm test`, which hands the directory over, or here), copied for each server, served by `wrangler dev`;
// stopped by PID afterwards. Journey files run in lanes (`JOURNEY_LANES`), each against servers of its
// own with its own copy of the state, so two files running at once never meet in one database: the
// journeys' own server (the first lane's on E2E_PORT) with the real payment window, and one with a
// 5-second window for the journeys that watch a window close, so they wait seconds, not a minute.
import { appendFileSync, existsSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";

import type { TestProject } from "vitest/node";

import { PAYMENT_WINDOW_MS } from "../../app/domain/constants";
import { staleBuildReason } from "../support/build-freshness";
import { ensureChromium } from "../support/chromium";
import { copyState, type DevServer, freePorts, SEEDED_STATE_VARIABLE, seededState, startDevServer } from "../support/local-stack";

// One fixed port per run; E2E_PORT lets a second checkout run its journeys beside this one.
const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
/** The shortest window the app accepts: long enough to reach the payment page, short enough to watch it close. */
const SHORT_PAYMENT_WINDOW_SECONDS = 5;

/**
 * How many journey files run at once: two, or one per two cores on a bigger machine. One lane keeps
 * under one core busy (340 s of CPU in 425 s in `npm test`, much of it waiting for the other side's page,
 * the slow phone or a payment window), so on this 2-core machine two lanes took the journeys from 425 s
 * to 285 s for 7 % more CPU (ADR 0050).
 */
export const JOURNEY_LANES = Number(process.env.JOURNEY_LANES ?? Math.max(2, Math.floor(availableParallelism() / 2)));

/** One lane's servers. */
export interface JourneyLane {
  baseUrl: string;
  /** A server like `baseUrl`'s, with its own copy of the seeded state and a 5-second payment window. */
  shortWindowBaseUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One per lane; a journey file takes its worker's (`VITEST_POOL_ID`, 1 to JOURNEY_LANES). */
    journeyLanes: JourneyLane[];
    paymentWindowSeconds: number;
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
  const seeded = handedOver && existsSync(handedOver) ? handedOver : await seededState();
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
  // A free port is free when probed; a server starting beside this one may take it before wrangler
  // binds it. Then wrangler exits saying so, and new ports are tried once.
  const serveOnFreePort = async (vars: Record<string, string>, attempt = 1): Promise<DevServer> => {
    const [port, inspectorPort] = (await freePorts(2)) as [number, number];
    try {
      return await serve(port, inspectorPort, vars);
    } catch (error) {
      if (attempt > 1 || !String(error).includes("Address already in use")) throw error;
      return serveOnFreePort(vars, attempt + 1);
    }
  };
  const shortWindow = { PAYMENT_WINDOW_SECONDS: String(SHORT_PAYMENT_WINDOW_SECONDS) };
  const lanes = await Promise.all(
    Array.from({ length: JOURNEY_LANES }, async (_, lane) => {
      const [main, short] = await Promise.all([
        lane === 0 ? serve(E2E_PORT, E2E_PORT + 1000, {}) : serveOnFreePort({}),
        serveOnFreePort(shortWindow),
      ]);
      return { baseUrl: main.url, shortWindowBaseUrl: short.url };
    }),
  ).catch(async (error: unknown) => {
    // Vitest does not tear down a setup that failed: the servers that did start are stopped here.
    await teardown();
    throw error;
  });
  project.provide("journeyLanes", lanes);
  project.provide("paymentWindowSeconds", PAYMENT_WINDOW_MS / 1000);
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
