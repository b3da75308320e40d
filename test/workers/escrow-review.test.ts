// An escrow sent to an admin's review (its doctor gone, or the consultation not ended a week after
// payment) has a way out on every side, each audited: held again when the doctor ends the consultation
// after all (then confirmed, disputed or released as any other), or refunded when an admin cancels it.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, consultations, escrows, refunds } from "~/db/schema";
import { openDispute } from "~/server/money/disputes.server";
import { confirmConsultationComplete, releaseDueEscrows, sendStrandedEscrowsToReview } from "~/server/money/escrow.server";

import { Visitor } from "./browser-like";
import { createUser, db, sessionCookieFor } from "./fixtures";
import { config, ESCROW_RELEASE_AFTER_MS, paidConsultation } from "./money-fixtures";

const DAY_MS = 24 * 60 * 60_000;
const SUMMARY = {
  observations: "Dry, scaly patches on both forearms.",
  diagnosis: "Atopic eczema",
  treatmentPlan: "Emollient twice daily; review in 2 weeks.",
};

const escrowOf = async (consultationId: string) =>
  (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;
const auditOf = (consultationId: string, action: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, consultationId), eq(auditLog.action, action)));

/** A paid consultation its doctor has not ended eight days on, sent to review by the job. */
async function inReview() {
  const paid = await paidConsultation();
  await db
    .update(consultations)
    .set({ startedAt: new Date(Date.now() - 8 * DAY_MS) })
    .where(eq(consultations.id, paid.consultationId));
  expect(await sendStrandedEscrowsToReview(db, new Date())).toBeGreaterThanOrEqual(1);
  expect(await escrowOf(paid.consultationId)).toMatchObject({ status: "in_review", reviewReason: "doctor_gone" });
  return paid;
}

async function endedByDoctor(consultationId: string, doctorId: string) {
  const doctor = new Visitor(await sessionCookieFor(doctorId));
  expect((await doctor.post(`/doctor/consultation/${consultationId}`, { intent: "end-consultation", ...SUMMARY })).status).toBe(302);
}

describe("an escrow sent to review", () => {
  it("is audited once, by the job run that sent it", async () => {
    const { consultationId } = await inReview();
    await Promise.all([sendStrandedEscrowsToReview(db, new Date()), sendStrandedEscrowsToReview(db, new Date())]);
    const sent = await auditOf(consultationId, "escrow.sent_to_review");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ actorId: null, targetType: "consultation" });
  });

  it("is held again, audited, when its doctor ends the consultation after all, and released 72 hours on", async () => {
    const { consultationId, doctorId } = await inReview();
    await endedByDoctor(consultationId, doctorId);
    expect(await escrowOf(consultationId)).toMatchObject({ status: "held", reviewReason: null });
    const ended = await auditOf(consultationId, "escrow.review_ended");
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ actorId: doctorId });

    const completedAt = (await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) }))!.completedAt!;
    await releaseDueEscrows(db, new Date(completedAt.getTime() + ESCROW_RELEASE_AFTER_MS - 60_000));
    expect(await escrowOf(consultationId)).toMatchObject({ status: "held" });
    await releaseDueEscrows(db, new Date(completedAt.getTime() + ESCROW_RELEASE_AFTER_MS));
    expect(await escrowOf(consultationId)).toMatchObject({ status: "released" });
  });

  it("may then be confirmed by the patient, or disputed", async () => {
    const confirmed = await inReview();
    await endedByDoctor(confirmed.consultationId, confirmed.doctorId);
    expect(await confirmConsultationComplete(db, confirmed.patientId, confirmed.consultationId, new Date())).toEqual({ ok: true });
    expect(await escrowOf(confirmed.consultationId)).toMatchObject({ status: "released" });

    const disputed = await inReview();
    await endedByDoctor(disputed.consultationId, disputed.doctorId);
    const words = { reason: "not_helpful" as const, words: "The advice did not match my skin." };
    expect(await openDispute({ db, config: config() }, disputed.patientId, disputed.consultationId, words, new Date())).toEqual({
      ok: true,
    });
    expect(await escrowOf(disputed.consultationId)).toMatchObject({ status: "disputed" });
  });

  it("is refunded in full when an admin cancels the consultation", async () => {
    const { consultationId } = await inReview();
    const adminId = await createUser("admin");
    const admin = new Visitor(await sessionCookieFor(adminId));
    expect((await admin.post(`/admin/consultations/${consultationId}`, { reason: "The doctor went silent" })).status).toBe(302);
    const cancelled = await admin.post(`/admin/consultations/${consultationId}`, {
      intent: "cancel-paid",
      note: "Your doctor could not continue.",
    });
    expect(cancelled.status).toBe(302);
    expect(await escrowOf(consultationId)).toMatchObject({ status: "refunded" });
    const refund = await db.query.refunds.findFirst({ where: eq(refunds.consultationId, consultationId) });
    expect(refund).toMatchObject({ reason: "cancelled", amountSantim: (await escrowOf(consultationId)).amountSantim });
  });
});
