// `npm run bench:admin`: how fast the admin console answers with a platform of some size.
// Starts its own `wrangler dev` on port 8896 (or BENCH_PORT) with fresh local state, seeds 1,000 doctors, 3,000
// patients, 10,000 consultations in every status (with their payments and feedback) and 20,000 audit
// entries, then loads each admin page (lists, searches, filters, later pages) as an admin, one request
// at a time, and prints p50 and p99 of the server's answer time per page, and its size.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { ConsultationStatus } from "../app/domain/consultation-status.ts";
import { consultationRow, paidPaymentRow } from "../test/support/bench-seed.ts";
import { benchAccount, printLatencies, serveSeeded } from "../test/support/bench-stack.ts";
import { benchPort } from "../test/support/local-stack.ts";
import { inserts, type Row } from "../test/support/seed-rows.ts";

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
  const statuses: ConsultationStatus[] = [
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
  const consultationRows: Array<Row<"consultations">> = [];
  const paymentRows: Array<Row<"payments">> = [];
  const feedback: Array<Row<"patient_feedback">> = [];
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
    consultationRows.push({
      ...consultationRow({
        id,
        patientId: patient.id,
        doctorId: doctor?.id ?? null,
        status,
        title,
        acceptedAt,
        startedAt,
        completedAt,
        createdAt,
        updatedAt: createdAt,
      }),
      paymentDeadlineAt: deadline === null ? null : new Date(deadline),
    });
    if (startedAt)
      paymentRows.push(
        paidPaymentRow({
          id: randomUUID(),
          consultationId: id,
          patientId: patient.id,
          txRef: `bench-${index}`,
          amountSantim: 150,
          paidAt: startedAt,
          createdAt,
        }),
      );
    if (completedAt && index % 2 === 0)
      feedback.push({
        id: randomUUID(),
        consultationId: id,
        patientId: patient.id,
        doctorId: doctor!.id,
        rating: (index % 5) + 1,
        feedbackMessage: `Bench feedback ${index}`,
        createdAt: new Date(completedAt + MINUTE_MS),
      });
  }
  const audit = Array.from({ length: AUDIT_ENTRIES }, (_, index): Row<"audit_log"> => {
    const consultation = consultationRows[index % consultationRows.length]!;
    return {
      actorId: consultation.doctorId ?? admin.id,
      action: "consultation.viewed",
      targetType: "consultation",
      targetId: consultation.id!,
      ipAddress: "127.0.0.1",
      createdAt: new Date(now - index * 1_000),
    };
  });

  const server = await serveSeeded(PORT, stateDir, [
    ...[admin, ...doctors, ...patients].flatMap((account) => account.statements),
    ...inserts("consultations", consultationRows),
    ...inserts("payments", paymentRows),
    ...inserts("patient_feedback", feedback),
    ...inserts("audit_log", audit),
  ]);
  stop = server.stop;
  console.log(
    `Seeded ${DOCTORS} doctors, ${PATIENTS} patients, ${CONSULTATIONS} consultations, ${paymentRows.length} payments, ${feedback.length} feedback, ${AUDIT_ENTRIES} audit entries.`,
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
