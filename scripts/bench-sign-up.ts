// `npm run bench:sign-up`: whether the sign-up form's answer takes as long for an address that already
// has an account as for a new one (issue 15: 14 against 23 ms was seen, which told who has an account).
// Starts its own `wrangler dev` on port 8898 (or BENCH_PORT) with fresh local state and 50 accounts,
// then signs up a new address and a taken one in turn, one request at a time with a pause between (so
// each answer is timed alone, not behind the work its predecessor left for after its answer), and
// prints p50 and p99 of each and the difference of the medians. The per-client sign-up limit is
// cleared between rounds (every local request comes from 127.0.0.1).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { benchAccount, percentile, printLatencies, serveSeeded } from "../test/support/bench-stack.ts";
import { benchPort, run } from "../test/support/local-stack.ts";

const PORT = benchPort(8898);
/** Rounds of two new and two taken addresses (under the limit of 5 sign-ups an hour per client). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PASSWORD = "Bench-Skin-2026";
/** Long enough for the work a sign-up leaves for after its answer (a password hash, a mail) to end. */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 250);

const stateDir = mkdtempSync(join(tmpdir(), "qoda-bench-"));
let stop: (() => Promise<void>) | undefined;
try {
  const now = Date.now();
  const taken = Array.from({ length: ROUNDS * 2 }, (_, index) => benchAccount("patient", index, now));
  const server = await serveSeeded(
    PORT,
    stateDir,
    taken.flatMap((account) => account.statements),
  );
  stop = server.stop;
  const origin = `http://localhost:${PORT}`;

  async function signUp(email: string) {
    const form = new URLSearchParams({
      firstName: "Bench",
      lastName: "Sign-up",
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptTerms: "on",
      acceptPrivacy: "on",
    });
    await sleep(PAUSE_MS);
    const started = performance.now();
    const response = await fetch(`${origin}/register`, { method: "POST", body: form, headers: { Origin: origin }, redirect: "manual" });
    await response.arrayBuffer();
    const elapsedMs = performance.now() - started;
    if (response.status !== 302) throw new Error(`Sign-up of ${email} answered ${response.status}`);
    return elapsedMs;
  }
  const clearSignUpLimit = () =>
    run(
      "wrangler",
      ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--command", "DELETE FROM rate_limit_hits WHERE key LIKE 'sign-up:%'"],
      { quiet: true },
    );

  const newMs: number[] = [];
  const takenMs: number[] = [];
  await signUp("warm-up@bench.test");
  for (let round = 0; round < ROUNDS; round++) {
    await clearSignUpLimit();
    // Alternating, so a slow moment of the machine falls on both kinds alike.
    for (let index = 0; index < 2; index++) {
      newMs.push(await signUp(`new-${round}-${index}@bench.test`));
      takenMs.push(await signUp(`patient${round * 2 + index}@bench.test`));
    }
  }
  printLatencies(`Sign-up, a new address (${newMs.length} answers)`, newMs);
  printLatencies(`Sign-up, a taken address (${takenMs.length} answers)`, takenMs);
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  console.log(`\nDifference of the medians (taken - new): ${(median(takenMs) - median(newMs)).toFixed(1)} ms`);
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
