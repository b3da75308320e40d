// What the benchmarks share: a fresh local stack of their own (built, migrated, seeded with their rows,
// served by `wrangler dev` on their port), and accounts with a live session each (the cookie a client
// sends), written as SQL (seed-rows.ts typed inserts) so hundreds are made in one `wrangler d1 execute`.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import WebSocket from "ws";

import { applyMigrations, build, run, startDevServer } from "./local-stack.ts";
import { inserts } from "./seed-rows.ts";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
/** The session cookie as Remix's createCookie writes it (JSON, base64, URI-encoded). */
const cookieFor = (token: string) => `__Host-qoda_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;

/** A confirmed account of `role` with a session that lasts the run (active doctors have a code). */
export function benchAccount(role: "doctor" | "patient" | "admin", index: number, now: number) {
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  const at = new Date(now);
  const statements = [
    ...inserts("users", [{ id, email: `${role}${index}@bench.test`, emailConfirmedAt: at, createdAt: at, updatedAt: at }]),
    ...inserts("user_roles", [{ userId: id, role, createdAt: at }]),
    ...inserts("profiles", [
      {
        userId: id,
        firstName: "Bench",
        lastName: `${role}${index}`,
        preferredLanguage: "en",
        consentTerms: true,
        consentPrivacy: true,
        consentTimestamp: at,
        createdAt: at,
        updatedAt: at,
      },
    ]),
    ...inserts("sessions", [
      { id: sha256(token), userId: id, createdAt: at, lastSeenAt: new Date(now + 3_600_000), expiresAt: new Date(now + 86_400_000) },
    ]),
  ];
  if (role === "doctor")
    statements.push(
      ...inserts("doctors", [
        { userId: id, status: "active", specialty: "Dermatologist", doctorCode: `B${index}`, createdAt: at, updatedAt: at },
      ]),
    );
  return { id, statements, cookie: cookieFor(token) };
}

export function percentile(sorted: number[], fraction: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/** Prints `heading`, then p50, p99, min and max of `latenciesMs` (unless there are none). */
export function printLatencies(heading: string, latenciesMs: number[], ...details: string[]) {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  console.log(`\n${heading}`);
  for (const detail of details) console.log(`  ${detail}`);
  if (sorted.length === 0) return;
  console.log(`  p50 ${percentile(sorted, 0.5).toFixed(1)} ms`);
  console.log(`  p99 ${percentile(sorted, 0.99).toFixed(1)} ms`);
  console.log(`  min ${sorted[0]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`);
}

/**
 * A WebSocket from Node with the account's cookie, not offering compression: the Worker refuses it
 * (no_web_socket_compression, docs/decisions/0040), but under `wrangler dev` the client talks to
 * wrangler's proxy, which would accept it and deflate every frame for every socket, a cost no
 * deployed Worker pays. (Node's own WebSocket always offers it, hence `ws`.)
 */
export function socketWithCookie(url: string, cookie: string): WebSocket {
  return new WebSocket(url, { headers: { Cookie: cookie }, perMessageDeflate: false });
}

/** Builds, migrates `stateDir`, runs `statements` into its D1, and serves the app on `port` (stop it by PID). */
export async function serveSeeded(port: number, stateDir: string, statements: string[]) {
  await build({ quiet: true });
  await applyMigrations(stateDir, { quiet: true });
  const seed = join(stateDir, "bench-seed.sql");
  writeFileSync(seed, statements.join("\n"));
  await run("wrangler", ["d1", "execute", "DB", "--local", `--file=${seed}`, "--persist-to", stateDir], { quiet: true });
  return startDevServer({ port, persistTo: stateDir, vars: { APP_ENV: "test", SESSION_SECRET: randomBytes(32).toString("hex") } });
}
