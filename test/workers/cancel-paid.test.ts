// A paid consultation its doctor cannot finish, in the real D1: the job sends it to an admin's review
// (the patient reads why the money waits), and an admin who opened it with a reason cancels it with a
// note, which refunds the patient in full through the provider, once, and tells both people.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, consultations, doctors, escrows, notifications, refunds } from "~/db/schema";
import { sendStrandedEscrowsToReview } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";

import { Visitor } from "./browser-like";
import { createUser, db, sessionCookieFor } from "./fixtures";
import { paidConsultation } from "./money-fixtures";

const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

async function openedByAdmin(consultationId: string) {
  const adminId = await createUser("admin");
  const admin = new Visitor(await sessionCookieFor(adminId));
  expect((await admin.post(`/admin/consultations/${consultationId}`, { reason: "The doctor was deactivated" })).status).toBe(302);
  return { adminId, admin };
}

const escrowOf = async (consultationId: string) =>
  (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;

describe("a paid consultation its doctor cannot finish", () => {
  it("goes to an admin's review when its doctor is deactivated, and the patient reads why the money waits", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const other = await paidConsultation();
    await db.update(doctors).set({ status: "inactive" }).where(eq(doctors.userId, doctorId));
    await Promise.all([sendStrandedEscrowsToReview(db, new Date()), sendStrandedEscrowsToReview(db, new Date())]);
    expect(await escrowOf(consultationId)).toMatchObject({ status: "in_review", reviewReason: "doctor_gone" });
    expect(await escrowOf(other.consultationId)).toMatchObject({ status: "held" });

    const patient = new Visitor(await sessionCookieFor(patientId));
    expect(text(await (await patient.get(`/patient/consultation/${consultationId}`)).text())).toContain(
      "stays in escrow while a Qoda admin reviews this consultation",
    );
    const { admin } = await openedByAdmin(consultationId);
    const finance = text(await (await admin.get("/admin/finance")).text());
    expect(finance).toContain(`/admin/consultations/${consultationId}`);
    expect(finance).toContain("1 consultation's payment is held for review");
  });

  it("is cancelled by an admin with a note, refunded in full once, and both people are told", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const { adminId, admin } = await openedByAdmin(consultationId);
    const record = text(await (await admin.get(`/admin/consultations/${consultationId}`)).text());
    expect(record).toContain("Cancel this consultation and refund the patient…");

    const form = { intent: "cancel-paid", note: "Your doctor could not continue on Qoda." };
    const answers = await Promise.all([
      admin.post(`/admin/consultations/${consultationId}`, form),
      admin.post(`/admin/consultations/${consultationId}`, form),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409]);

    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) })).toMatchObject({ status: "cancelled" });
    expect(await escrowOf(consultationId)).toMatchObject({ status: "refunded" });
    const [refund, ...more] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(more).toHaveLength(0);
    expect(refund).toMatchObject({
      reason: "cancelled",
      amountSantim: 15_000,
      requestedBy: adminId,
      note: "Your doctor could not continue on Qoda.",
    });
    // The whole fee left escrow for the patient; nothing went to the doctor.
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(0);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "consultation.cancelled_after_payment"), eq(auditLog.targetId, consultationId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: adminId,
      details: { reason: "Your doctor could not continue on Qoda.", amountSantim: 15_000 },
    });
    for (const userId of [patientId, doctorId])
      expect(
        await db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.kind, "consultation_cancelled"))),
      ).toHaveLength(1);

    const patient = new Visitor(await sessionCookieFor(patientId));
    const page = text(await (await patient.get(`/patient/consultation/${consultationId}`)).text());
    expect(page).toContain("Qoda cancelled this consultation after it was paid (Your doctor could not continue on Qoda.).");
    expect(page).not.toContain('data-testid="waiting-screen"');
    await patient.get("/?lng=am");
    expect(text(await (await patient.get(`/patient/consultation/${consultationId}`)).text())).toContain("«ቆዳ» ይህን ምክክር ከተከፈለበት በኋላ ሰርዞታል");

    const doctor = new Visitor(await sessionCookieFor(doctorId));
    expect(text(await (await doctor.get(`/doctor/consultation/${consultationId}`)).text())).toContain("The patient is refunded in full.");
  });

  it("refuses without an opening, without a note, and for a disputed payment, changing nothing", async () => {
    const { consultationId } = await paidConsultation();
    const adminId = await createUser("admin");
    const stranger = new Visitor(await sessionCookieFor(adminId));
    const unopened = await stranger.post(`/admin/consultations/${consultationId}`, { intent: "cancel-paid", note: "Gone" });
    expect(unopened.status).toBe(403);
    expect(text(await unopened.text())).toContain("open it again with a reason first");

    const { admin } = await openedByAdmin(consultationId);
    const noNote = await admin.post(`/admin/consultations/${consultationId}`, { intent: "cancel-paid", note: "  " });
    expect(noNote.status).toBe(400);
    expect(text(await noNote.text())).toContain("Say why the consultation is cancelled.");

    await db.update(escrows).set({ status: "disputed" }).where(eq(escrows.consultationId, consultationId));
    const disputed = await admin.post(`/admin/consultations/${consultationId}`, { intent: "cancel-paid", note: "Gone" });
    expect(disputed.status).toBe(409);
    expect(text(await disputed.text())).toContain("decide the dispute instead");
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) })).toMatchObject({
      status: "in_progress",
    });
    expect(await db.select().from(refunds).where(eq(refunds.consultationId, consultationId))).toHaveLength(0);

    const patient = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect(
      (await patient.post(`/admin/consultations/${consultationId}`, { intent: "cancel-paid", note: "x" })).headers.get("Location"),
    ).toBe("/access-denied");
  });
});
