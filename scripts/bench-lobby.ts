// `npm run bench:lobby`: how fast a submitted request reaches every connected doctor.
// Starts its own `wrangler dev` on port 8798 (or BENCH_PORT) with fresh local state, seeds 200 active
// doctors (each with a session) and a patient per request (a patient may have only 3 waiting),
// connects 200 doctor sockets to the lobby, submits five warm-up requests (timed apart) and then the
// measured ones through the real form action, and prints p50 and p99 of the time from submit to the LAST
// socket receiving it, and how many deliveries never arrived (which must be 0; the run then fails).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type WebSocket from "ws";

import { benchAccount, printLatencies, serveSeeded, socketWithCookie } from "../test/support/bench-stack.ts";
import { benchPort } from "../test/support/local-stack.ts";

const PORT = benchPort(8798);
const DOCTORS = Number(process.env.BENCH_DOCTORS ?? 200);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
/**
 * Requests sent first and reported apart: a fresh server's first submits run code V8 has not yet
 * optimised (the first about 100 ms slower, the next four still 5-30 ms), which a server that has
 * served a few requests no longer pays.
 */
const WARM_UP_REQUESTS = 5;
/** A request a socket has not received within this long counts as lost to it. */
const LOST_AFTER_MS = 10_000;

const stateDir = mkdtempSync(join(tmpdir(), "qoda-bench-"));
let stop: (() => Promise<void>) | undefined;
try {
  // Sessions count as active for an hour from now, so the run is not cut short by the idle timeout.
  const now = Date.now();
  const doctors = Array.from({ length: DOCTORS }, (_, index) => benchAccount("doctor", index, now));
  const allPatients = Array.from({ length: WARM_UP_REQUESTS + REQUESTS }, (_, index) => benchAccount("patient", index, now));
  const [warmUpPatients, patients] = [allPatients.slice(0, WARM_UP_REQUESTS), allPatients.slice(WARM_UP_REQUESTS)];
  const server = await serveSeeded(
    PORT,
    stateDir,
    [...doctors, ...allPatients].flatMap((item) => item.statements),
  );
  stop = server.stop;
  const wsUrl = `ws://localhost:${PORT}/parties/doctors-lobby/main`;

  // Each socket records when it saw each request title arrive.
  const arrivals = doctors.map(() => new Map<string, number>());
  const sockets = await Promise.all(
    doctors.map(
      (doctor, index) =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = socketWithCookie(wsUrl, doctor.cookie);
          socket.addEventListener("message", (event) => {
            const message = JSON.parse(String(event.data)) as { type: string; request?: { title: string } };
            if (message.type === "queue") resolve(socket);
            if (message.type === "request_added" && message.request) arrivals[index]!.set(message.request.title, performance.now());
          });
          socket.addEventListener("error", () => reject(new Error(`doctor socket ${index} failed`)));
        }),
    ),
  );
  console.log(`${sockets.length} doctor sockets connected to the lobby.`);

  /** Submits a request as `patient` and waits for every socket to receive it: the time it took, or how many sockets missed it. */
  async function submitAndWait(patient: { cookie: string }, title: string) {
    const startedAt = performance.now();
    const response = await fetch(`${server.url}/patient/new-consultation?step=2`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: patient.cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "submit",
        chiefComplaint: title,
        priority: "normal",
        ageYears: "34",
        sex: "female",
        bodyAreas: "left_forearm",
        durationAmount: "3",
        durationUnit: "weeks",
      }),
    });
    if (response.status !== 302) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
    const deadline = Date.now() + LOST_AFTER_MS;
    while (arrivals.some((seen) => !seen.has(title)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    const missing = arrivals.filter((seen) => !seen.has(title)).length;
    return { missing, tookMs: missing ? null : Math.max(...arrivals.map((seen) => seen.get(title)!)) - startedAt };
  }

  // The warm-up requests are checked like the others, and their times printed on their own line.
  let lost = 0;
  const warmUpMs: number[] = [];
  for (const patient of warmUpPatients) {
    const { missing, tookMs } = await submitAndWait(patient, `Warm-up request ${randomUUID().slice(0, 8)}`);
    lost += missing;
    if (tookMs !== null) warmUpMs.push(tookMs);
  }
  const latenciesMs: number[] = [];
  for (let index = 0; index < REQUESTS; index++) {
    const { missing, tookMs } = await submitAndWait(patients[index]!, `Bench request ${index} ${randomUUID().slice(0, 8)}`);
    lost += missing;
    if (tookMs !== null) latenciesMs.push(tookMs);
  }
  for (const socket of sockets) socket.close(1000, "bench done");

  printLatencies(
    `Lobby fan-out, ${DOCTORS} doctors, ${REQUESTS} requests (submit to the last socket receiving it):`,
    latenciesMs,
    `deliveries ${DOCTORS * (WARM_UP_REQUESTS + REQUESTS)} (the warm-up's included), lost ${lost}`,
  );
  console.log(`  warm-up (${WARM_UP_REQUESTS} requests, not counted): ${warmUpMs.map((ms) => `${ms.toFixed(1)} ms`).join(", ")}`);
  if (lost > 0) process.exitCode = 1;
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
