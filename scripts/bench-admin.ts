// `npm run bench:admin`: how fast the admin console answers with a platform of some size.
// Starts its own `wrangler dev` on port 8896 (or BENCH_PORT) with fresh local state, seeds 1,000 doctors, 3,000
// patients, 10,000 consultations in every status (with their payments and feedback) and 20,000 audit
// entries, then loads each admin page (lists, searches, filters, later pages) as an admin, one request
// at a time, and prints p50 and p99 of the server's answer time per page, and its size.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { benchAccount, inserts, printLatencies, SEED_COLUMNS, serveSeeded } from "../test/support/bench-stack.ts";
import { benchPort } from "../test/support/local-stack.ts";

const PORT = benchPort(8896);
const DOCTORS = Number(process.env.BENCH_DOCTORS ?? 1_000);
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 3_000);
const CONSULTATIONS = Number(process.env.BENCH_CONSULTATIONS ?? 10_000);
const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 20_000);
/** Loads of each page measured (after one that warms it up). */
const LOADS = Number(process.env.BENCH_LOADS ?? 20);
const MINUTE_MS = 60_000;

const stateDir = mkdtempSync(join(tmpdir(), "qoda-bench-"));
let stop: (() => Promise<void>) | undefined;
try {
  const now = Date.now();
  const admin = benchAccount("admin", 0, now);
  const doctors = Array.from({ length: DOCTORS }, (_, index) => benchAccount("doctor", index, now));
  const patients = Array.from({ length: PATIENTS }, (_, index) => benchAccount("patient", index, now));

  // Statuses in rough real proportions; times spread over the last 90 days.
  const statuses = [
    "completed",
    "completed",
    "completed",
    "completed",
    "completed",
    "completed",
    "in_progress",
    "pending",
    "cancelled",
    "accepted_awaiting_payment",
  ];
  const consultations: Array<Array<string | number | null>> = [];
  const payments: Array<Array<string | number | null>> = [];
  const feedback: Array<Array<string | number | null>> = [];
  for (let index = 0; index < CONSULTATIONS; index++) {
    const id = randomUUID();
    const status = statuses[index % statuses.length]!;
    const patient = patients[index % PATIENTS]!;
    const hasDoctor = status !== "pending" && status !== "cancelled";
    const doctor = hasDoctor ? doctors[(index * 7) % DOCTORS]! : null;
    const createdAt = now - ((index * 13) % (90 * 24 * 60)) * MINUTE_MS;
    const acceptedAt = hasDoctor ? createdAt + ((index % 9) + 1) * MINUTE_MS : null;
    const startedAt = status === "completed" || status === "in_progress" ? acceptedAt! + ((index % 5) + 1) * MINUTE_MS : null;
    const completedAt = status === "completed" ? startedAt! + 30 * MINUTE_MS : null;
    const deadline = status === "accepted_awaiting_payment" ? now + 15 * MINUTE_MS : null;
    const title = `Bench complaint ${index}: itchy patches on the arm`;
    consultations.push([
      id,
      patient.id,
      doctor?.id ?? null,
      status,
      "normal",
      title,
      title,
      acceptedAt,
      startedAt,
      completedAt,
      createdAt,
      createdAt,
      deadline,
    ]);
    if (startedAt)
      payments.push([randomUUID(), id, patient.id, `bench-${index}`, "sandbox", 150, "ETB", "paid", startedAt, createdAt, startedAt]);
    if (completedAt && index % 2 === 0)
      feedback.push([randomUUID(), id, patient.id, doctor!.id, (index % 5) + 1, `Bench feedback ${index}`, completedAt + MINUTE_MS]);
  }
  const audit = Array.from({ length: AUDIT_ENTRIES }, (_, index) => {
    const consultation = consultations[index % consultations.length]!;
    return [consultation[2] ?? admin.id, "consultation.viewed", "consultation", consultation[0]!, "127.0.0.1", now - index * 1_000];
  });

  const server = await serveSeeded(PORT, stateDir, [
    ...[admin, ...doctors, ...patients].flatMap((account) => account.statements),
    ...inserts("consultations", [...SEED_COLUMNS.consultation, "payment_deadline_at"], consultations),
    ...inserts("payments", SEED_COLUMNS.payment, payments),
    ...inserts(
      "patient_feedback",
      ["id", "consultation_id", "patient_id", "doctor_id", "rating", "feedback_message", "created_at"],
      feedback,
    ),
    ...inserts("audit_log", ["actor_id", "action", "target_type", "target_id", "ip_address", "created_at"], audit),
  ]);
  stop = server.stop;
  console.log(
    `Seeded ${DOCTORS} doctors, ${PATIENTS} patients, ${CONSULTATIONS} consultations, ${payments.length} payments, ${feedback.length} feedback, ${AUDIT_ENTRIES} audit entries.`,
  );

  const someDoctor = `doctor${Math.floor(DOCTORS / 2)}`;
  const pages = [
    "/admin/dashboard",
    "/admin/dashboard?tab=doctors&page=10",
    "/admin/overview",
    "/admin/doctors",
    `/admin/doctors?q=${someDoctor}`,
    "/admin/doctors?page=15",
    "/admin/patients",
    `/admin/patients?q=${someDoctor}`,
    "/admin/patients?filter=active",
    "/admin/patients?page=40",
    "/admin/feedbacks?q=Bench",
    "/admin/feedbacks?rating=5&page=5",
    "/admin/audit",
    "/admin/audit?action=consultation.viewed&page=100",
    `/admin/audit?actor=${someDoctor}`,
    "/admin/payments",
    "/admin/payments?page=50",
    "/admin/doctor-registrations",
    "/admin/messages",
  ];
  for (const path of pages) {
    const latenciesMs: number[] = [];
    let bytes = 0;
    for (let load = 0; load <= LOADS; load++) {
      const startedAt = performance.now();
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: admin.cookie }, redirect: "manual" });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      if (load > 0) latenciesMs.push(performance.now() - startedAt);
      bytes = body.length;
    }
    printLatencies(`GET ${path}`, latenciesMs, `${(bytes / 1024).toFixed(1)} KB of HTML`);
  }
} finally {
  await stop?.();
  rmSync(stateDir, { recursive: true, force: true });
}
