// The money ledger and escrow in the real D1: a confirmed payment is captured into its consultation's
// escrow once however often the provider repeats itself; the journal refuses to be changed; the patient's
// confirmation and the 72-hour schedule release the escrow once, to the doctor and the platform.
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, consultations, escrows, ledgerEntries, ledgerLines, refunds } from "~/db/schema";
import { ESCROW_RELEASE_AFTER_MS } from "~/domain/escrow";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { confirmConsultationComplete, releaseDueEscrows } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";

import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { config, endedAgo, paidAtProvider, paidConsultation, SANDBOX_CHARGE_SANTIM, signedWebhook } from "./money-fixtures";

const webhook = (txRef: string) =>
  signedWebhook({ event: "charge.success", tx_ref: txRef, status: "success", amount: "150.00", currency: "ETB" });

const entriesOfKey = (key: string) => db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key));
const escrowNow = async (consultationId: string) =>
  (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;

describe("capturing a payment", () => {
  it("holds the fee in the consultation's escrow once, for 100 webhooks at once", async () => {
    const { consultationId, doctorId, txRef } = await paidAtProvider();
    const answers = await Promise.all(Array.from({ length: 100 }, () => webhook(txRef)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));

    const entries = await entriesOfKey(`payment:${txRef}:captured`);
    expect(entries).toHaveLength(1);
    const lines = await db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entries[0]!.id));
    expect(
      lines
        .map(({ account, subject, amountSantim }) => ({ account, subject, amountSantim }))
        .sort((a, b) => a.amountSantim - b.amountSantim),
    ).toEqual([
      { account: "escrow", subject: consultationId, amountSantim: -CONSULTATION_FEE_SANTIM },
      { account: "provider_fees", subject: "", amountSantim: SANDBOX_CHARGE_SANTIM },
      { account: "provider_clearing", subject: "", amountSantim: CONSULTATION_FEE_SANTIM - SANDBOX_CHARGE_SANTIM },
    ]);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
    expect(await escrowNow(consultationId)).toMatchObject({
      status: "held",
      doctorId,
      amountSantim: CONSULTATION_FEE_SANTIM,
      releasedAt: null,
    });
  });

  it("captures a late payment and refunds it through the provider at once, once, with no hold for the doctor", async () => {
    const { consultationId, txRef } = await paidAtProvider();
    // The window closed before the provider's word came.
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultationId));
    const outcomes = await Promise.all([1, 2, 3].map(() => confirmPayment(env, config(), ORIGIN, txRef, new Date())));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["late", "late", "late"]);
    expect(await entriesOfKey(`payment:${txRef}:captured`)).toHaveLength(1);
    // The whole amount left escrow for the patient, by one refund asked of the provider.
    const late = await db.query.refunds.findMany({ where: eq(refunds.consultationId, consultationId) });
    expect(late).toEqual([expect.objectContaining({ reason: "late_payment", channel: "provider", amountSantim: CONSULTATION_FEE_SANTIM })]);
    expect(await entriesOfKey(`refund:${late[0]!.reference}:started`)).toHaveLength(1);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) })).toBeUndefined();
  });

  it("keeps the books balanced: every account's balance sums to zero", async () => {
    await paidConsultation();
    const [books] = await db.all<{ total: number }>(sql`SELECT coalesce(sum(amount_santim), 0) AS total FROM ledger_lines`);
    expect(books!.total).toBe(0);
    const [unbalanced] = await db.all<{ entries: number }>(
      sql`SELECT count(*) AS entries FROM (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_santim) <> 0)`,
    );
    expect(unbalanced!.entries).toBe(0);
  });
});

describe("the journal is append-only", () => {
  it("refuses to update or delete an entry or a line, in the database itself", async () => {
    const { txRef } = await paidConsultation();
    const [entry] = await entriesOfKey(`payment:${txRef}:captured`);
    /** The database's own refusal (drizzle wraps it as the cause of its error). */
    const refusal = (attempt: Promise<unknown>) =>
      attempt.then(
        () => "written",
        (error: Error) => String(error.cause ?? error),
      );
    const where = eq(ledgerEntries.id, entry!.id);
    expect(await refusal(db.update(ledgerEntries).set({ kind: "escrow_released" }).where(where))).toMatch(/ledger_entries is append-only/);
    expect(await refusal(db.delete(ledgerEntries).where(where))).toMatch(/ledger_entries is append-only/);
    expect(await refusal(db.update(ledgerLines).set({ amountSantim: 1 }).where(eq(ledgerLines.entryId, entry!.id)))).toMatch(
      /ledger_lines is append-only/,
    );
    expect(await refusal(db.delete(ledgerLines).where(eq(ledgerLines.entryId, entry!.id)))).toMatch(/ledger_lines is append-only/);
    expect(await entriesOfKey(`payment:${txRef}:captured`)).toHaveLength(1);
  });
});

describe("releasing escrow", () => {
  const { doctorSantim, platformSantim } = splitRelease(CONSULTATION_FEE_SANTIM);

  it("splits 150 ETB as 120 to the doctor and 30 to the platform", () => {
    expect({ doctorSantim, platformSantim }).toEqual({ doctorSantim: 12_000, platformSantim: 3_000 });
  });

  it("releases at once when the patient confirms the consultation is complete, once", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const stranger = await createUser("patient");
    // Not before the doctor has ended it, and never for someone else.
    expect(await confirmConsultationComplete(db, patientId, consultationId, new Date())).toEqual({ ok: false, reason: "not_ended" });
    await endedAgo(consultationId, 60_000);
    expect(await confirmConsultationComplete(db, stranger, consultationId, new Date())).toEqual({ ok: false, reason: "not_found" });
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(0);

    const outcomes = await Promise.all([1, 2, 3].map(() => confirmConsultationComplete(db, patientId, consultationId, new Date())));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(await entriesOfKey(`consultation:${consultationId}:released`)).toHaveLength(1);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-doctorSantim);
    expect(await escrowNow(consultationId)).toMatchObject({ status: "released" });
    expect((await escrowNow(consultationId)).confirmedAt).not.toBeNull();
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "escrow.released"), eq(auditLog.targetId, consultationId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: patientId, details: { by: "patient", amountSantim: CONSULTATION_FEE_SANTIM } });
    expect(await confirmConsultationComplete(db, patientId, consultationId, new Date())).toEqual({ ok: false, reason: "not_held" });
  });

  it("releases by schedule 72 hours after the end, not a minute before, once for two jobs at once", async () => {
    const early = await paidConsultation();
    const due = await paidConsultation();
    await endedAgo(early.consultationId, ESCROW_RELEASE_AFTER_MS - 60_000);
    await endedAgo(due.consultationId, ESCROW_RELEASE_AFTER_MS);
    const now = new Date();
    await Promise.all([releaseDueEscrows(db, now), releaseDueEscrows(db, now)]);

    expect(await escrowNow(early.consultationId)).toMatchObject({ status: "held", releasedAt: null });
    expect(await balanceOf(db, "doctor_payable", early.doctorId)).toBe(0);
    expect(await escrowNow(due.consultationId)).toMatchObject({ status: "released", confirmedAt: null });
    expect(await entriesOfKey(`consultation:${due.consultationId}:released`)).toHaveLength(1);
    expect(await balanceOf(db, "doctor_payable", due.doctorId)).toBe(-doctorSantim);
    expect(await balanceOf(db, "escrow", due.consultationId)).toBe(0);
  });

  it("leaves a consultation still in progress held, however long ago it was paid", async () => {
    const { consultationId } = await paidConsultation();
    await releaseDueEscrows(db, new Date(Date.now() + 30 * ESCROW_RELEASE_AFTER_MS));
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });
  });
});

describe("the patient's page", () => {
  it("says where the money is, and the patient's form releases it, told in their language, without JavaScript", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const patient = new Visitor(await sessionCookieFor(patientId));
    const during = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(during.html).toContain("is held in escrow by Qoda");
    expect(during.html).not.toContain('value="confirm-complete"');

    await endedAgo(consultationId, 60_000);
    const feedbackPage = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(feedbackPage.url).toBe(`${ORIGIN}/patient/feedback/${consultationId}`);
    expect(feedbackPage.html).toContain("unless you open a dispute before then");

    // Someone else's consultation is not found, and changes nothing.
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" })).status).toBe(404);
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });

    const confirmed = await patient.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" });
    expect(confirmed.headers.get("Location")).toBe(`/patient/feedback/${consultationId}`);
    const after = await patient.follow(confirmed);
    expect(after.html).toContain("Your payment has been released to the doctor.");
    expect(after.html).toContain("was released to Dr. Test on");
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-splitRelease(CONSULTATION_FEE_SANTIM).doctorSantim);

    // A second click is told it is done, in Amharic for an Amharic reader.
    await patient.get("/?lng=am");
    const told = await patient.follow(await patient.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" }));
    expect(told.html).toContain("ይህ ክፍያ ከእንግዲህ በአደራ ሂሳብ ስላልተያዘ ምንም አልተቀየረም።");
    expect(await entriesOfKey(`consultation:${consultationId}:released`)).toHaveLength(1);
  });

  it("answers the feedback page's dispute form there: its errors on that page, then the dispute sent", async () => {
    const { consultationId, patientId } = await paidConsultation();
    await endedAgo(consultationId, 60_000);
    const patient = new Visitor(await sessionCookieFor(patientId));
    const page = `/patient/feedback/${consultationId}`;
    // Posted where the patient is (an unrated consultation's own page sends them back here).
    const refused = await patient.post(page, { intent: "open-dispute" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Choose what went wrong.");
    expect(html).toContain("Tell us what happened.");
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });

    const sent = await patient.post(page, { intent: "open-dispute", reason: "not_helpful", words: "The cream did nothing." });
    expect(sent.headers.get("Location")).toBe(page);
    expect((await patient.follow(sent)).html).toContain("Your dispute was sent.");
    expect(await escrowNow(consultationId)).toMatchObject({ status: "disputed" });
  });
});
