// What the benchmarks share: a fresh local stack of their own (built, migrated, seeded with their rows,
// served by `wrangler dev` on their port), and accounts with a live session each (the cookie a client
// sends), written as SQL so hundreds are made in one `wrangler d1 execute`.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import WebSocket from "ws";

import { applyMigrations, build, run, startDevServer } from "./local-stack.ts";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
/** The session cookie as Remix's createCookie writes it (JSON, base64, URI-encoded). */
const cookieFor = (token: string) => `__Host-qoda_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`;

/** A confirmed account of `role` with a session that lasts the run (active doctors have a code). */
export function benchAccount(role: "doctor" | "patient" | "admin", index: number, now: number) {
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  const statements = [
    `INSERT INTO users (id, email, email_confirmed_at, created_at, updated_at) VALUES (${quote(id)}, ${quote(`${role}${index}@bench.test`)}, ${now}, ${now}, ${now});`,
    `INSERT INTO user_roles (user_id, role, created_at) VALUES (${quote(id)}, ${quote(role)}, ${now});`,
    `INSERT INTO profiles (user_id, first_name, last_name, preferred_language, consent_terms, consent_privacy, consent_timestamp, created_at, updated_at) VALUES (${quote(id)}, 'Bench', ${quote(`${role}${index}`)}, 'en', 1, 1, ${now}, ${now}, ${now});`,
    `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (${quote(sha256(token))}, ${quote(id)}, ${now}, ${now + 3_600_000}, ${now + 86_400_000});`,
  ];
  if (role === "doctor")
    statements.push(
      `INSERT INTO doctors (user_id, status, specialty, doctor_code, created_at, updated_at) VALUES (${quote(id)}, 'active', 'Dermatologist', ${quote(`B${index}`)}, ${now}, ${now});`,
    );
  return { id, statements, cookie: cookieFor(token) };
}

/** The columns of a row the benches' seeds write to these tables, in the order their rows list them. */
export const SEED_COLUMNS = {
  consultation: [
    "id",
    "patient_id",
    "doctor_id",
    "status",
    "priority",
    "title",
    "main_concern",
    "accepted_at",
    "started_at",
    "completed_at",
    "created_at",
    "updated_at",
  ],
  payment: [
    "id",
    "consultation_id",
    "patient_id",
    "tx_ref",
    "provider",
    "amount_santim",
    "currency",
    "status",
    "paid_at",
    "created_at",
    "updated_at",
  ],
  ledgerEntry: ["id", "idempotency_key", "kind", "consultation_id", "doctor_id", "payment_id", "line_count", "created_at"],
  ledgerLine: ["id", "entry_id", "account", "subject", "amount_santim"],
};

/** Rows as multi-row INSERTs of 200 each: one statement per batch keeps the seed file quick to run. */
export function inserts(table: string, columns: string[], rows: Array<Array<string | number | null>>) {
  const literal = (value: string | number | null) => (value === null ? "NULL" : typeof value === "number" ? String(value) : quote(value));
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += 200) {
    const values = rows.slice(start, start + 200).map((row) => `(${row.map(literal).join(", ")})`);
    statements.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values.join(", ")};`);
  }
  return statements;
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
