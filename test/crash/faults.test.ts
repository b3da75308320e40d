// Issue 19, item 6: the server killed mid-operation. A `wrangler dev` of this file's own, on a state of
// its own, is SIGKILLed (its whole process group, as a crash or a power cut ends it) a few milliseconds
// into submits, accepts, payments and chat messages, then started again on the same state. The clients
// do what a phone does when its request got no answer: they send the same thing again. Each operation
// must then have happened exactly once; a payment window that ran out while the server was down
// closes once it is back; and a chat socket reconnects and catches up on what it missed.
import { randomUUID } from "node:crypto";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { benchAccount } from "../support/bench-stack";
import { copyState, type DevServer, freePort, run, SEEDED_STATE_VARIABLE, seededState, startDevServer } from "../support/local-stack";

/**
 * The payment window of the last test, which watches one run out while the server is down: the others
 * pay within the app's own window, however slow the machine.
 */
const SHORT_PAYMENT_WINDOW_SECONDS = 10;

let stateDir: string;
let port: number;
let server: DevServer | undefined;
const origin = () => `http://localhost:${port}`;
const SESSION_SECRET = `${randomUUID()}${randomUUID()}`;

async function start(paymentWindow: Record<string, string> = {}) {
  server = await startDevServer({
    port,
    inspectorPort: await freePort(),
    persistTo: stateDir,
    vars: { APP_ENV: "test", SESSION_SECRET, ...paymentWindow },
    testScheduled: true,
  });
}

/** The crash: the server's whole process group, with no chance to finish anything. */
async function kill() {
  const pid = server!.process.pid!;
  const exited = new Promise((resolve) => server!.process.once("exit", resolve));
  process.kill(-pid, "SIGKILL");
  await exited;
  server = undefined;
}

/** Sends every request at once, kills the server `afterMs` later, and starts it again on the same state. */
async function crashDuring(requests: Array<() => Promise<unknown>>, afterMs: number) {
  const sent = requests.map((send) => send().catch(() => "no answer"));
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  await kill();
  await Promise.all(sent);
  await start();
}

const now = Date.now();
const patients = Array.from({ length: 3 }, (_, index) => benchAccount("patient", index, now));
const doctor = benchAccount("doctor", 0, now);
const admin = benchAccount("admin", 0, now);
/** Where the doctor's money goes: a wallet the sandbox's transfers accept. */
const payoutAccount = `INSERT INTO doctor_payout_accounts (doctor_id, bank_code, bank_name, account_name, account_number, created_at, updated_at) VALUES ('${doctor.id}', '855', 'telebirr', 'Bench Doctor', '0911000002', ${now}, ${now});`;

function post(path: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${origin()}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: origin(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

const get = (path: string, cookie: string) => fetch(`${origin()}${path}`, { redirect: "manual", headers: { Cookie: cookie } });

/** A request without photos, as step 2 sends it; its one-time key makes a resend the same request. */
const submit = (patientIndex: number, title: string, submissionKey: string) => () =>
  post("/patient/new-consultation?step=2", patients[patientIndex]!.cookie, {
    intent: "submit",
    submissionKey,
    chiefComplaint: title,
    priority: "normal",
    ageYears: "30",
    sex: "female",
    bodyAreas: "left_forearm",
    durationAmount: "2",
    durationUnit: "weeks",
  });

/** The server's D1 file (SQLite in WAL mode, as miniflare keeps it). */
function databaseFile() {
  const directory = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  return join(
    directory,
    readdirSync(directory).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")!,
  );
}

/** Changes the server's D1 under it: only to move a time into the past, as the Workers tests' fixtures do. */
function write(statement: string) {
  const database = new DatabaseSync(databaseFile());
  try {
    database.exec("PRAGMA busy_timeout = 5000");
    database.exec(statement);
  } finally {
    database.close();
  }
}

/**
 * Reads the server's D1 as it is on disk (SQLite in WAL mode), while the server runs: `wrangler d1
 * execute` would contend with it for the database's lock.
 */
function sql<Row>(query: string): Row[] {
  const database = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    database.exec("PRAGMA busy_timeout = 5000");
    return database.prepare(query).all() as Row[];
  } finally {
    database.close();
  }
}
const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

function consultationsTitled(title: string) {
  return sql<{ id: string; status: string; doctor_id: string | null }>(
    `SELECT id, status, doctor_id FROM consultations WHERE title = ${quoted(title)}`,
  );
}

beforeAll(async () => {
  const seeded = process.env[SEEDED_STATE_VARIABLE];
  stateDir = seeded ? await copyState(seeded, "qoda-faults-") : await seededState();
  const seed = join(stateDir, "faults-accounts.sql");
  writeFileSync(seed, [...[...patients, doctor, admin].flatMap((account) => account.statements), payoutAccount].join("\n"));
  await run("wrangler", ["d1", "execute", "DB", "--local", `--file=${seed}`, "--persist-to", stateDir], { quiet: true });
  port = await freePort();
  await start();
  // A hang detector, not a stopwatch: seeding its own state and starting wrangler took 5 minutes on a
  // machine loaded ten times over.
}, 600_000);

afterAll(async () => {
  if (server) await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("a server killed mid-operation, then started again", () => {
  const requests = patients.map((_, index) => ({ index, title: `Faults ${index} ${randomUUID().slice(0, 8)}`, key: randomUUID() }));

  it("keeps each submitted request once, however often the patient sends it again", async () => {
    await crashDuring(
      requests.map(({ index, title, key }) => submit(index, title, key)),
      25,
    );
    for (const { index, title, key } of requests) expect((await submit(index, title, key)()).status).toBe(302);
    for (const { title } of requests) expect(consultationsTitled(title)).toHaveLength(1);
  });

  it("gives each accepted request one doctor, however often the doctor presses Accept again", async () => {
    const ids = requests.map(({ title }) => consultationsTitled(title)[0]!.id);
    const accept = (id: string) => () => post(`/doctor/consultation/${id}`, doctor.cookie, { intent: "accept" });
    await crashDuring(ids.map(accept), 15);
    for (const id of ids) expect((await accept(id)()).status).toBeLessThan(500);
    for (const { title } of requests) {
      const [consultation] = consultationsTitled(title);
      expect(consultation).toMatchObject({ status: "accepted_awaiting_payment", doctor_id: doctor.id });
    }
    const accepted = sql<{ accepted: number }>(
      `SELECT count(*) AS accepted FROM audit_log WHERE action = 'consultation.accepted' AND target_id IN (${ids.map(quoted).join(", ")})`,
    );
    expect(accepted[0]!.accepted).toBe(ids.length);
  });

  it("takes each payment once: one paid attempt and one capture in the books, whether the crash hit the webhook or the return", async () => {
    const payments = await Promise.all(
      requests.map(async ({ index, title }) => {
        const [consultation] = consultationsTitled(title);
        const cookie = patients[index]!.cookie;
        const page = await (await get(`/patient/payment/${consultation!.id}`, cookie)).text();
        const txRef = /name="txRef" value="([^"]+)"/.exec(page)?.[1];
        expect(txRef, page.slice(0, 300)).toMatch(/^qoda-/);
        const toCheckout = await post(`/patient/payment/${consultation!.id}`, cookie, { intent: "pay", txRef: txRef! });
        expect(toCheckout.status).toBe(302);
        return { id: consultation!.id, cookie, txRef: txRef!, checkout: new URL(toCheckout.headers.get("Location")!, origin()).pathname };
      }),
    );
    // The sandbox's Pay sends the signed webhook to the app, then the browser to the return page.
    await crashDuring(
      payments.map(
        ({ cookie, checkout }) =>
          () =>
            post(checkout, cookie, { outcome: "pay" }),
      ),
      20,
    );
    for (const { cookie, checkout, txRef } of payments) {
      await post(checkout, cookie, { outcome: "pay" });
      // Back on the return page, as the phone reloads it: the app asks the provider itself.
      expect((await get(`/payments/return/${txRef}`, cookie)).status).toBeLessThan(500);
    }
    for (const { id, txRef } of payments) {
      const paid = sql<{ status: string }>(`SELECT status FROM payments WHERE consultation_id = ${quoted(id)}`);
      expect(paid.filter((payment) => payment.status === "paid")).toHaveLength(1);
      const captured = sql<{ entries: number }>(
        `SELECT count(*) AS entries FROM ledger_entries WHERE idempotency_key = ${quoted(`payment:${txRef}:captured`)}`,
      );
      expect(captured[0]!.entries).toBe(1);
      expect(sql<{ status: string }>(`SELECT status FROM consultations WHERE id = ${quoted(id)}`)[0]!.status).toBe("in_progress");
    }
    const books = sql<{ total: number }>("SELECT coalesce(sum(amount_santim), 0) AS total FROM ledger_lines");
    expect(books[0]!.total).toBe(0);
  });

  it("stores a chat message once when the socket sends it again after the crash, and the socket catches up", async () => {
    const [consultation] = consultationsTitled(requests[0]!.title);
    const text = `Still itching ${randomUUID().slice(0, 8)}`;
    const clientId = randomUUID();
    const connect = async () => {
      const socket = new WebSocket(`ws://localhost:${port}/parties/consultation-room/${consultation!.id}`, {
        headers: { Cookie: patients[0]!.cookie },
      } as unknown as string[]);
      const events: Array<{ type: string; messages?: Array<{ text: string }>; message?: { text: string } }> = [];
      socket.addEventListener("message", (event) => events.push(JSON.parse(String(event.data))));
      await new Promise((resolve, reject) => {
        socket.addEventListener("open", resolve, { once: true });
        socket.addEventListener("error", reject, { once: true });
      });
      return { socket, events };
    };
    const sendOnce = async () => {
      const connected = await connect();
      connected.socket.send(JSON.stringify({ type: "send", clientId, text }));
      return connected;
    };
    await crashDuring([sendOnce], 10);
    // The page's socket reconnects: the whole history comes first, then the text is sent again.
    const { socket, events } = await sendOnce();
    await expect
      .poll(
        () =>
          events.some((event) => event.type === "message" && event.message?.text === text) ||
          events.some((event) => event.type === "send_refused"),
      )
      .toBe(true);
    const history = events.find((event) => event.type === "history");
    expect(history, "a reconnected socket is sent the history first").toBeDefined();
    socket.close();
    // A fresh page's socket gets the history: the text is in it once.
    const fresh = await connect();
    await expect.poll(() => fresh.events.find((event) => event.type === "history")).toBeDefined();
    const stored = fresh.events.find((event) => event.type === "history")!.messages!.filter((message) => message.text === text);
    expect(stored).toHaveLength(1);
    fresh.socket.close();
  });

  it("releases each consultation's escrow once and pays the doctor once, though the job and the payout run were killed midway", async () => {
    const ids = requests.map(({ title }) => consultationsTitled(title)[0]!.id);
    for (const id of ids) {
      const ended = await post(`/doctor/consultation/${id}`, doctor.cookie, {
        intent: "end-consultation",
        observations: "Dry patches",
        diagnosis: "Eczema",
        treatmentPlan: "Emollient twice a day",
      });
      expect(ended.status).toBeLessThan(400);
    }
    // Ended 73 hours ago, as if the patient had stayed silent: their escrow is due for release.
    write(`UPDATE consultations SET completed_at = ${Date.now() - 73 * 60 * 60_000} WHERE id IN (${ids.map(quoted).join(", ")})`);
    const runJob = () => fetch(`${origin()}/__scheduled?cron=${encodeURIComponent("*/15 * * * *")}`);
    await crashDuring([runJob], 30);
    expect((await runJob()).status).toBe(200);
    const payoutRun = () => post("/admin/finance", admin.cookie, { intent: "run-payouts" });
    await crashDuring([payoutRun], 15);
    expect((await payoutRun()).status).toBeLessThan(500);

    for (const id of ids)
      expect(
        sql<{ entries: number }>(
          `SELECT count(*) AS entries FROM ledger_entries WHERE idempotency_key = ${quoted(`consultation:${id}:released`)}`,
        )[0]!.entries,
      ).toBe(1);
    const payouts = sql<{ amount_santim: number; status: string }>(
      `SELECT amount_santim, status FROM payouts WHERE doctor_id = ${quoted(doctor.id)} AND status <> 'failed'`,
    );
    expect(payouts).toHaveLength(1);
    const started = sql<{ entries: number }>(
      `SELECT count(*) AS entries FROM ledger_entries WHERE kind = 'payout_started' AND doctor_id = ${quoted(doctor.id)}`,
    );
    expect(started[0]!.entries).toBe(1);
    const payable = sql<{ balance: number }>(
      `SELECT coalesce(sum(amount_santim), 0) AS balance FROM ledger_lines WHERE account = 'doctor_payable' AND subject = ${quoted(doctor.id)}`,
    );
    expect(payable[0]!.balance).toBe(0);
    expect(sql<{ total: number }>("SELECT coalesce(sum(amount_santim), 0) AS total FROM ledger_lines")[0]!.total).toBe(0);
  });

  it("ends a payment window that ran out while the server was down, once it is back: the request waits for a doctor again", async () => {
    const { index, title, key } = { index: 0, title: `Faults window ${randomUUID().slice(0, 8)}`, key: randomUUID() };
    await kill();
    await start({ PAYMENT_WINDOW_SECONDS: String(SHORT_PAYMENT_WINDOW_SECONDS) });
    expect((await submit(index, title, key)()).status).toBe(302);
    const [waiting] = consultationsTitled(title);
    expect((await post(`/doctor/consultation/${waiting!.id}`, doctor.cookie, { intent: "accept" })).status).toBeLessThan(400);
    const deadline = sql<{ payment_deadline: number }>(
      `SELECT payment_deadline_at AS payment_deadline FROM consultations WHERE id = ${quoted(waiting!.id)}`,
    );
    await kill();
    // Down until the window has run out.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline[0]!.payment_deadline - Date.now()) + 500));
    await start();
    await expect.poll(() => consultationsTitled(title)[0]!.status, { timeout: 20_000, interval: 500 }).toBe("pending");
    expect(consultationsTitled(title)[0]!.doctor_id).toBeNull();
  });
});
