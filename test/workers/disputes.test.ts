// Disputes and refunds in the real D1 with the sandbox provider: a dispute within the 72 hours and not
// a minute after, the doctor's one answer, each decision of an admin (release, full and part refund),
// two admins at once, a dispute racing the scheduled release at the boundary, and refunds settled once
// for 100 replayed webhooks, or failed back into escrow.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { consultations, disputes, escrows, ledgerEntries, notifications, payments, refunds } from "~/db/schema";
import { DISPUTE_WINDOW_MS } from "~/domain/escrow";
import { refundStarted } from "~/domain/ledger";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { answerDispute, openDispute, resolveDispute } from "~/server/money/disputes.server";
import { releaseDueEscrows } from "~/server/money/escrow.server";
import { balanceOf, ledgerEntryStatements } from "~/server/money/ledger.server";
import { moveRefundsOn } from "~/server/money/refunds.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";

import { Visitor } from "./browser-like";
import { createUser, db, sessionCookieFor } from "./fixtures";
import { config, endedAgo, ESCROW_RELEASE_AFTER_MS, paidConsultation, signedWebhook } from "./money-fixtures";

afterEach(async () => {
  await setSandboxSwitch(env, "refunds", "succeed");
});

const ctx = () => ({ db, config: config() });
const words = { reason: "not_helpful" as const, words: "The advice did not match my skin." };
const escrowOf = async (consultationId: string) =>
  (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;
const entriesOfKey = (key: string) => db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key));

/** A consultation paid for and ended `endedAgoMs` ago. */
async function ended(endedAgoMs = 60 * 60_000) {
  const paid = await paidConsultation();
  await endedAgo(paid.consultationId, endedAgoMs);
  return paid;
}

async function disputed() {
  const paid = await ended();
  expect(await openDispute(ctx(), paid.patientId, paid.consultationId, words, new Date())).toEqual({ ok: true });
  const dispute = (await db.query.disputes.findFirst({ where: eq(disputes.consultationId, paid.consultationId) }))!;
  return { ...paid, disputeId: dispute.id };
}

describe("opening a dispute", () => {
  it("freezes the escrow within 72 hours of the end, tells the doctor, and is refused a minute after", async () => {
    const { consultationId, patientId, doctorId } = await ended(DISPUTE_WINDOW_MS - 60_000);
    const stranger = await createUser("patient");
    expect(await openDispute(ctx(), stranger, consultationId, words, new Date())).toEqual({ ok: false, reason: "not_found" });
    expect(await openDispute(ctx(), patientId, consultationId, words, new Date())).toEqual({ ok: true });
    expect(await escrowOf(consultationId)).toMatchObject({ status: "disputed" });
    expect(
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, doctorId), eq(notifications.kind, "dispute_opened"))),
    ).toHaveLength(1);
    // Frozen: the schedule does not release it, however late.
    await releaseDueEscrows(db, new Date(Date.now() + 10 * ESCROW_RELEASE_AFTER_MS));
    expect(await escrowOf(consultationId)).toMatchObject({ status: "disputed" });
    expect(await openDispute(ctx(), patientId, consultationId, words, new Date())).toEqual({ ok: false, reason: "not_held" });

    const late = await ended(DISPUTE_WINDOW_MS + 60_000);
    expect(await openDispute(ctx(), late.patientId, late.consultationId, words, new Date())).toEqual({
      ok: false,
      reason: "window_closed",
    });
    expect(await escrowOf(late.consultationId)).toMatchObject({ status: "held" });
  });

  it("races the scheduled release at the 72-hour boundary: one of them wins, never both", async () => {
    for (let round = 0; round < 6; round++) {
      const { consultationId, patientId } = await ended(ESCROW_RELEASE_AFTER_MS);
      const completedAt = (await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) }))!.completedAt!;
      const boundary = completedAt.getTime() + ESCROW_RELEASE_AFTER_MS;
      // The patient's request a millisecond before the boundary, the job's run a millisecond after: each
      // allowed on its own, at the same moment, so only the statements themselves can decide.
      const [opened] = await Promise.all([
        openDispute(ctx(), patientId, consultationId, words, new Date(boundary - 1)),
        releaseDueEscrows(db, new Date(boundary + 1)),
      ]);
      const escrow = await escrowOf(consultationId);
      const released = (await entriesOfKey(`consultation:${consultationId}:released`)).length;
      const dispute = await db.query.disputes.findFirst({ where: eq(disputes.consultationId, consultationId) });
      if (escrow.status === "released") {
        expect(released).toBe(1);
        expect(dispute).toBeUndefined();
        expect(opened.ok).toBe(false);
      } else {
        expect(escrow.status).toBe("disputed");
        expect(released).toBe(0);
        expect(dispute).toBeDefined();
      }
    }
  });

  it("takes the doctor's answer once", async () => {
    const { disputeId, doctorId, consultationId } = await disputed();
    const answers = await Promise.all(
      ["It is the usual advice.", "Second thoughts."].map((answer) => answerDispute(ctx(), doctorId, consultationId, answer, new Date())),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect((await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId) }))!.doctorAnswer).not.toBeNull();
  });
});

describe("an admin's decision", () => {
  const { doctorSantim } = splitRelease(CONSULTATION_FEE_SANTIM);

  it("releases to the doctor", async () => {
    const { disputeId, consultationId, doctorId } = await disputed();
    const adminId = await createUser("admin");
    expect(
      await resolveDispute(
        env,
        ctx(),
        adminId,
        disputeId,
        { resolution: "release", refundPartSantim: null, note: "Sound advice." },
        new Date(),
      ),
    ).toEqual({
      ok: true,
    });
    expect(await escrowOf(consultationId)).toMatchObject({ status: "released" });
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-doctorSantim);
    expect(await db.select().from(refunds).where(eq(refunds.consultationId, consultationId))).toHaveLength(0);
  });

  it("refunds in full through the provider, the doctor getting nothing", async () => {
    const { disputeId, consultationId, doctorId } = await disputed();
    await resolveDispute(
      env,
      ctx(),
      await createUser("admin"),
      disputeId,
      { resolution: "refund_full", refundPartSantim: null, note: "No advice given." },
      new Date(),
    );
    expect(await escrowOf(consultationId)).toMatchObject({ status: "refunded" });
    const [refund] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(refund).toMatchObject({ reason: "dispute", amountSantim: CONSULTATION_FEE_SANTIM });
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(0);
  });

  it("refunds part and releases the rest, split by the fee rate", async () => {
    const { disputeId, consultationId, doctorId } = await disputed();
    await resolveDispute(
      env,
      ctx(),
      await createUser("admin"),
      disputeId,
      { resolution: "refund_part", refundPartSantim: 5_000, note: "Half-right." },
      new Date(),
    );
    const [refund] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(refund).toMatchObject({ amountSantim: 5_000 });
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-splitRelease(10_000).doctorSantim);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
  });

  it("refunds part only within what the escrow holds, and refuses more on the admin's form instead of clamping it", async () => {
    const { disputeId, consultationId } = await disputed();
    // 50 ETB of this escrow already on its way back (a refund under way): it holds 100 ETB, not the fee.
    const escrow = await escrowOf(consultationId);
    const gone = { reference: `qoda-rf-test-${consultationId}`, consultationId, paymentId: escrow.paymentId, amountSantim: 5_000 };
    const [first, ...rest] = ledgerEntryStatements(db, refundStarted(gone), new Date());
    await db.batch([first!, ...rest]);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-10_000);
    const adminId = await createUser("admin");
    const tooMuch = { resolution: "refund_part" as const, refundPartSantim: 12_000, note: "Most of it." };
    expect(await resolveDispute(env, ctx(), adminId, disputeId, tooMuch, new Date())).toEqual({
      ok: false,
      reason: "part_not_held",
      heldSantim: 10_000,
    });

    const admin = new Visitor(await sessionCookieFor(adminId));
    const form = { intent: "resolve-dispute", disputeId, resolution: "refund_part", note: "Most of it." };
    const refused = await admin.post("/admin/finance/disputes", { ...form, refundBirr: "120" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("The escrow holds 100 ETB");
    // The admin's words stay in the form.
    expect(html).toContain("Most of it.");
    await admin.get("/?lng=am");
    expect(await (await admin.post("/admin/finance/disputes", { ...form, refundBirr: "100" })).text()).toContain("100 ብር");
    expect(await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId) })).toMatchObject({ status: "open" });
    expect(await db.select().from(refunds).where(eq(refunds.consultationId, consultationId))).toHaveLength(0);

    expect((await admin.post("/admin/finance/disputes", { ...form, refundBirr: "40" })).status).toBe(302);
    expect(await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId) })).toMatchObject({ refundSantim: 4_000 });
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
  });

  it("is made once when two admins decide at the same moment", async () => {
    const { disputeId, consultationId, doctorId } = await disputed();
    const [one, two] = [await createUser("admin"), await createUser("admin")];
    const outcomes = await Promise.all([
      resolveDispute(env, ctx(), one, disputeId, { resolution: "release", refundPartSantim: null, note: "Release." }, new Date()),
      resolveDispute(env, ctx(), two, disputeId, { resolution: "refund_full", refundPartSantim: null, note: "Refund." }, new Date()),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const dispute = (await db.query.disputes.findFirst({ where: eq(disputes.id, disputeId) }))!;
    const refunded = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    const payable = await balanceOf(db, "doctor_payable", doctorId);
    if (dispute.resolution === "release") {
      expect(refunded).toHaveLength(0);
      expect(payable).toBe(-doctorSantim);
    } else {
      expect(refunded).toHaveLength(1);
      expect(payable).toBe(0);
    }
  });
});

describe("a refund at the provider", () => {
  async function refunded() {
    const { disputeId, consultationId } = await disputed();
    await resolveDispute(
      env,
      ctx(),
      await createUser("admin"),
      disputeId,
      { resolution: "refund_full", refundPartSantim: null, note: "Refund." },
      new Date(),
    );
    const [refund] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    const payment = (await db.query.payments.findFirst({ where: eq(payments.id, refund!.paymentId) }))!;
    return { refund: refund!, txRef: payment.txRef, consultationId };
  }

  it("is settled once by its webhook replayed 100 times at once", async () => {
    const { refund, txRef } = await refunded();
    const body = {
      event: "charge.refunded",
      tx_ref: txRef,
      status: "refunded",
      amount: "150.00",
      currency: "ETB",
      meta: { reference: refund.reference },
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => signedWebhook(body)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect((await db.query.refunds.findFirst({ where: eq(refunds.id, refund.id) }))!.status).toBe("succeeded");
    expect(await entriesOfKey(`refund:${refund.reference}:settled`)).toHaveLength(1);
    expect(await balanceOf(db, "refunds_in_transit", refund.consultationId)).toBe(0);
  }, 30_000);

  it("that the provider refuses returns to escrow, once, for an admin", async () => {
    await setSandboxSwitch(env, "refunds", "fail");
    const { refund, consultationId } = await refunded();
    for (let hour = 3; hour <= 30; hour += 3) await moveRefundsOn(env, config(), new Date(Date.now() + hour * 60 * 60_000));
    expect((await db.query.refunds.findFirst({ where: eq(refunds.id, refund.id) }))!.status).toBe("failed");
    expect(await entriesOfKey(`refund:${refund.reference}:returned`)).toHaveLength(1);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
    expect(await balanceOf(db, "refunds_in_transit", consultationId)).toBe(0);
  });
});
