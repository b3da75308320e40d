// Money against a Chapa that misbehaves as the real one does (docs/decisions/0045), through the sandbox's
// switches and the real money code in the real D1: a transfer or refund whose answer was lost after Chapa
// took it is never sent twice; a refusal fails a payout or refund only once Chapa's verify shows nothing
// went out; what Chapa keeps queued or cannot be asked about waits for an admin, never back to a balance;
// a failing payout is retried weekly, with one email; and a payment taken back without us (a chargeback,
// a refund in Chapa's dashboard) freezes its money, claws back a released share, and is put before an admin,
// also when it meets a dispute's decision (its part refund settled by it, or the decision made on what is left).
import { env, SELF } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  consultations,
  disputes,
  doctorPayoutAccounts,
  escrows,
  ledgerEntries,
  mailOutbox,
  notifications,
  payments,
  payouts,
  reconciliationDifferences,
  refunds,
} from "~/db/schema";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { MAX_PAYOUT_ASKS } from "~/domain/payouts";
import { MAX_REFUND_ATTEMPTS } from "~/domain/refunds";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { createDatabase } from "~/server/db/client.server";
import { openDispute, resolveDispute } from "~/server/money/disputes.server";
import { confirmConsultationComplete, releaseDueEscrows } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";
import { decidePayout, movePayoutsOn, runPayouts } from "~/server/money/payouts.server";
import { decideRefund, moveRefundsOn } from "~/server/money/refunds.server";
import { takeBackSandboxTransaction } from "~/server/payments/sandbox.server";
import { readSandboxRecord, REFUNDS_PREFIX, sandboxTransaction, TRANSFERS_PREFIX } from "~/server/payments/sandbox-store.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { sendHeldSandboxWebhooks } from "~/server/payments/sandbox-webhook.server";

import { createUser, db, ORIGIN } from "./fixtures";
import {
  attemptPaidAtProvider,
  config,
  duringTransferHours,
  endedAgo,
  paidAtProvider,
  paidConsultation,
  signedWebhook,
} from "./money-fixtures";

const DOCTOR_SHARE = splitRelease(CONSULTATION_FEE_SANTIM).doctorSantim;
const MINUTE_MS = 60_000;

/** The sandbox's webhooks reach the Worker itself, as under wrangler dev. */
beforeEach(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(ORIGIN)) return realFetch(input, init);
    return SELF.fetch(request);
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
  await setSandboxSwitch(env, "webhooks", "on_time");
});

/** A doctor with one consultation released to them (120 ETB available) and payout details at the sandbox's CBE. */
async function doctorOwed() {
  const { consultationId, patientId, doctorId, txRef } = await paidConsultation();
  await endedAgo(consultationId, MINUTE_MS);
  expect((await confirmConsultationComplete(db, patientId, consultationId, new Date())).ok).toBe(true);
  const now = new Date();
  await db.insert(doctorPayoutAccounts).values({
    doctorId,
    bankCode: "946",
    bankName: "Commercial Bank of Ethiopia (CBE)",
    accountName: "Test Doctor",
    accountNumber: "1000123456789",
    createdAt: now,
    updatedAt: now,
  });
  return { doctorId, consultationId, patientId, txRef };
}

const payoutsOf = (doctorId: string) => db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
const available = async (doctorId: string) => 0 - (await balanceOf(db, "doctor_payable", doctorId));
const adminRun = async (at = new Date()) => runPayouts(env, config(), at, { adminId: await createUser("admin") });
/** The sandbox's transfers under the references of `doctorId`'s payouts that went out (not failed). */
async function transfersOut(doctorId: string) {
  const sent = [];
  for (const payout of await payoutsOf(doctorId)) {
    const transfer = await readSandboxRecord<{ status: string; amountSantim: number }>(env, `${TRANSFERS_PREFIX}${payout.reference}`);
    if (transfer && transfer.status !== "failed") sent.push(transfer);
  }
  return sent;
}
const noticesOf = (userId: string, kind: string) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), sql`${notifications.kind} = ${kind}`));

describe("payouts against a Chapa that misbehaves", () => {
  it("pays a transfer whose answer was lost after Chapa took it once, however many runs and jobs come after", async () => {
    const { doctorId } = await doctorOwed();
    await setSandboxSwitch(env, "payouts", "timeout_after_taking");
    await setSandboxSwitch(env, "webhooks", "late");
    const sentAt = new Date();
    await adminRun(sentAt);
    expect(await payoutsOf(doctorId)).toEqual([expect.objectContaining({ status: "pending", accepted: false, attempts: 1 })]);
    // Another run finds the payout in flight; the job asks Chapa what became of it before sending anything.
    await setSandboxSwitch(env, "payouts", "succeed");
    await adminRun(sentAt);
    await movePayoutsOn(env, config(), new Date(sentAt.getTime() + 2 * MINUTE_MS));
    const [payout, ...more] = await payoutsOf(doctorId);
    expect(more).toHaveLength(0);
    expect(payout).toMatchObject({ status: "succeeded", feeSantim: 500 });
    expect(await transfersOut(doctorId)).toHaveLength(1);
    // Its late webhook, and more runs, change nothing.
    await sendHeldSandboxWebhooks(config(), env);
    await adminRun();
    expect(await payoutsOf(doctorId)).toHaveLength(1);
    expect(await available(doctorId)).toBe(0);
    // Chapa's fee on the transfer is booked once.
    expect(
      await db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.idempotencyKey, `payout:${payout!.reference}:fee`)),
    ).toHaveLength(1);
  });

  it("fails a refused transfer only once Chapa says it has none, tells the doctor once, and waits for next week's run", async () => {
    const { doctorId } = await doctorOwed();
    await setSandboxSwitch(env, "payouts", "closed_hours");
    const at = duringTransferHours();
    await runPayouts(env, config(), at, "schedule");
    const [payout] = await payoutsOf(doctorId);
    expect(payout).toMatchObject({ status: "failed", failureReason: expect.stringContaining("Monday to Saturday") });
    expect(await available(doctorId)).toBe(DOCTOR_SHARE);
    // Four more ticks of the job, a quarter of an hour apart: nothing sent again, no more emails.
    await setSandboxSwitch(env, "payouts", "fail");
    for (let tick = 1; tick <= 4; tick++) {
      const now = new Date(at.getTime() + tick * 15 * MINUTE_MS);
      await runPayouts(env, config(), now, "schedule");
      await movePayoutsOn(env, config(), now);
    }
    expect(await payoutsOf(doctorId)).toHaveLength(1);
    expect(await noticesOf(doctorId, "payout_failed")).toHaveLength(1);
    const doctorMail = await db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} LIKE '%payout%' AND ${mailOutbox.toEmail} IN (SELECT email FROM users WHERE id = ${doctorId})`);
    expect(doctorMail).toHaveLength(1);
    // A week later the scheduled run tries again.
    await setSandboxSwitch(env, "payouts", "succeed");
    await runPayouts(env, config(), duringTransferHours(new Date(at.getTime() + 7 * 24 * 60 * MINUTE_MS + MINUTE_MS)), "schedule");
    expect((await payoutsOf(doctorId)).map((one) => one.status).sort()).toEqual(["failed", "succeeded"]);
  });

  it("sends no payout outside Chapa's transfer hours from the schedule", async () => {
    const { doctorId } = await doctorOwed();
    // Sunday noon in Addis Ababa (09:00 UTC).
    const sunday = new Date("2026-11-29T09:00:00Z");
    expect(await runPayouts(env, config(), sunday, "schedule")).toMatchObject({ sent: 0, outsideHours: true });
    expect(await payoutsOf(doctorId)).toHaveLength(0);
  });

  it("asks about a transfer Chapa keeps queued, then leaves it to an admin: never failed, never sent again", async () => {
    const { doctorId } = await doctorOwed();
    await setSandboxSwitch(env, "payouts", "queued");
    const sentAt = new Date();
    await adminRun(sentAt);
    for (let step = 1; step <= MAX_PAYOUT_ASKS + 2; step++)
      await movePayoutsOn(env, config(), new Date(sentAt.getTime() + step * 31 * MINUTE_MS));
    const [payout] = await payoutsOf(doctorId);
    expect(payout).toMatchObject({ status: "pending", accepted: true, reviewReason: "unknown_status" });
    expect(await transfersOut(doctorId)).toHaveLength(1);
    expect(await available(doctorId)).toBe(0);
    // An admin cannot fail what Chapa still holds; asked again once it goes through, it settles.
    const adminId = await createUser("admin");
    expect(await decidePayout(env, config(), adminId, payout!.id, { kind: "fail" }, new Date())).toEqual({
      outcome: "not_confirmed",
      providerSays: "queued",
    });
    await setSandboxSwitch(env, "payouts", "succeed");
    expect((await decidePayout(env, config(), adminId, payout!.id, { kind: "ask_again" }, new Date())).outcome).toBe("asked");
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "succeeded", reviewReason: null });
    expect(await transfersOut(doctorId)).toHaveLength(1);
  });

  it("puts a payout Chapa cannot be asked about before an admin, who may record it paid outside Chapa", async () => {
    const { doctorId } = await doctorOwed();
    await setSandboxSwitch(env, "payouts", "unreachable");
    const sentAt = new Date();
    await adminRun(sentAt);
    for (let step = 1; step <= MAX_PAYOUT_ASKS + 1; step++)
      await movePayoutsOn(env, config(), new Date(sentAt.getTime() + step * 31 * MINUTE_MS));
    const [payout] = await payoutsOf(doctorId);
    expect(payout).toMatchObject({ status: "pending", reviewReason: "attempts_exhausted" });
    expect(await available(doctorId)).toBe(0);
    const adminId = await createUser("admin");
    expect(
      await decidePayout(
        env,
        config(),
        adminId,
        payout!.id,
        { kind: "settled_outside", note: "Sent from our CBE account, ref 4411" },
        new Date(),
      ),
    ).toEqual({ outcome: "settled_outside" });
    expect((await payoutsOf(doctorId))[0]).toMatchObject({
      status: "succeeded",
      channel: "outside",
      note: "Sent from our CBE account, ref 4411",
    });
    const [entry] = await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `payout:${payout!.reference}:settled`));
    expect(entry).toBeDefined();
    expect(await noticesOf(doctorId, "payout_paid")).toHaveLength(1);
  });
});

/** A payment made after its window closed: refunded through the provider by itself, as the switches say. */
async function latePayment() {
  const paid = await paidAtProvider({ windowLeftMs: -MINUTE_MS });
  expect((await confirmPayment(env, config(), ORIGIN, paid.txRef, new Date())).kind).toBe("late");
  const refundsOf = () => db.select().from(refunds).where(eq(refunds.consultationId, paid.consultationId));
  return { ...paid, refundsOf };
}

describe("refunds against a Chapa that misbehaves", () => {
  it("settles a refund whose answer was lost after Chapa made it, without asking for it twice", async () => {
    await setSandboxSwitch(env, "refunds", "timeout_after_taking");
    await setSandboxSwitch(env, "webhooks", "late");
    const late = await latePayment();
    const [refund] = await late.refundsOf();
    expect(refund).toMatchObject({ status: "pending", accepted: false, attempts: 1 });
    await setSandboxSwitch(env, "refunds", "succeed");
    await moveRefundsOn(env, config(), new Date(Date.now() + 10 * MINUTE_MS));
    expect(await late.refundsOf()).toEqual([expect.objectContaining({ status: "succeeded" })]);
    await sendHeldSandboxWebhooks(config(), env);
    expect(await late.refundsOf()).toHaveLength(1);
    expect((await sandboxTransaction(env, late.txRef))!.refundedSantim).toBe(CONSULTATION_FEE_SANTIM);
    expect(await balanceOf(db, "escrow", late.consultationId)).toBe(0);
  });

  it("fails a refund Chapa refuses once the payment still reads paid; an admin records it refunded outside Chapa and the patient is told", async () => {
    await setSandboxSwitch(env, "refunds", "fail");
    const late = await latePayment();
    const [failed] = await late.refundsOf();
    expect(failed).toMatchObject({ status: "failed", lastError: "This transaction is not eligible for refund" });
    expect(await balanceOf(db, "escrow", late.consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
    const adminId = await createUser("admin");
    expect(
      await decideRefund(env, config(), adminId, failed!.id, { kind: "settled_outside", note: "Sent to her telebirr by hand" }, new Date()),
    ).toEqual({ outcome: "settled_outside" });
    // A second click changes nothing.
    expect((await decideRefund(env, config(), adminId, failed!.id, { kind: "settled_outside", note: "again" }, new Date())).outcome).toBe(
      "superseded",
    );
    const all = await late.refundsOf();
    expect(all).toHaveLength(2);
    expect(all.find((refund) => refund.id !== failed!.id)).toMatchObject({
      status: "succeeded",
      channel: "outside",
      note: "Sent to her telebirr by hand",
    });
    expect(await balanceOf(db, "escrow", late.consultationId)).toBe(0);
    expect(await noticesOf(late.patientId, "money_refunded")).toHaveLength(1);
  });

  it("asks again for a refund Chapa cannot be reached for, then leaves it to an admin, who fails it only as Chapa confirms", async () => {
    await setSandboxSwitch(env, "refunds", "unreachable");
    const late = await latePayment();
    for (let hour = 1; hour <= 40; hour += 3) await moveRefundsOn(env, config(), new Date(Date.now() + hour * 60 * MINUTE_MS));
    const [stuck] = await late.refundsOf();
    expect(stuck).toMatchObject({ status: "pending", reviewReason: "attempts_exhausted" });
    expect(stuck!.attempts).toBeGreaterThanOrEqual(MAX_REFUND_ATTEMPTS);
    const adminId = await createUser("admin");
    expect((await decideRefund(env, config(), adminId, stuck!.id, { kind: "fail" }, new Date())).outcome).toBe("failed");
    expect(await late.refundsOf()).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(await balanceOf(db, "escrow", late.consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
  });
});

describe("a payment taken back without us", () => {
  const differenceOf = (txRef: string) =>
    db
      .select()
      .from(reconciliationDifferences)
      .where(and(eq(reconciliationDifferences.reference, txRef), eq(reconciliationDifferences.kind, "charged_back")));

  it("freezes a held escrow on Chapa's verified word, puts it before an admin, tells both sides, and is never released", async () => {
    const { consultationId, patientId, doctorId, txRef } = await paidConsultation();
    await endedAgo(consultationId, MINUTE_MS);
    expect(await takeBackSandboxTransaction(config(), env, txRef, "reversed")).toBe(true);
    expect((await db.select().from(escrows).where(eq(escrows.consultationId, consultationId)))[0]).toMatchObject({
      status: "charged_back",
    });
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(
      await db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.idempotencyKey, `payment:${txRef}:reversed`)),
    ).toHaveLength(1);
    expect(await differenceOf(txRef)).toEqual([expect.objectContaining({ status: "open", consultationId })]);
    expect(await noticesOf(patientId, "payment_charged_back")).toHaveLength(1);
    expect(await noticesOf(doctorId, "payment_charged_back")).toHaveLength(1);
    // A replay of the webhook, and the release job 72 hours on, change nothing.
    const replay = await signedWebhook({ event: "charge.reversed", tx_ref: txRef, status: "reversed", meta: null });
    expect(await replay.text()).toBe("already_charged_back");
    await endedAgo(consultationId, 73 * 60 * MINUTE_MS);
    await releaseDueEscrows(db, new Date());
    expect((await db.select().from(escrows).where(eq(escrows.consultationId, consultationId)))[0]!.status).toBe("charged_back");
    expect(await available(doctorId)).toBe(0);
  });

  it("claws back a released share from the doctor's balance when Chapa's dashboard refunds it, so the next payout recovers it", async () => {
    const { doctorId, txRef } = await doctorOwed();
    expect(await available(doctorId)).toBe(DOCTOR_SHARE);
    expect(await takeBackSandboxTransaction(config(), env, txRef, "refunded")).toBe(true);
    expect(await available(doctorId)).toBe(0);
    expect(await balanceOf(db, "platform_revenue")).toBeLessThanOrEqual(0);
    expect((await adminRun()).sent).toBe(0);
    expect(await payoutsOf(doctorId)).toHaveLength(0);
    expect(await differenceOf(txRef)).toHaveLength(1);
  });

  /** What the admin's decision refunds of the dispute's 150 ETB (the rest, 100 ETB, is released). */
  const PART_SANTIM = 5_000;

  /** A consultation its patient disputed, and the admin deciding it (with a database of its own, when given). */
  async function disputedConsultation() {
    const paid = await paidConsultation();
    await endedAgo(paid.consultationId, MINUTE_MS);
    const words = { reason: "not_helpful" as const, words: "The cream did nothing." };
    expect(await openDispute({ db, config: config() }, paid.patientId, paid.consultationId, words, new Date())).toEqual({ ok: true });
    const dispute = (await db.query.disputes.findFirst({ where: eq(disputes.consultationId, paid.consultationId) }))!;
    const adminId = await createUser("admin");
    const decide = (resolution: "release" | "refund_full" | "refund_part", on = db) =>
      resolveDispute(
        env,
        { db: on, config: config() },
        adminId,
        dispute.id,
        { resolution, refundPartSantim: PART_SANTIM, note: "Decided." },
        new Date(),
      );
    return { ...paid, disputeId: dispute.id, decide };
  }

  /** The whole payment back with the patient: our part refund settled by it, the rest charged back from the release, once, before an admin. */
  async function expectPartRefundCoveredByTakeBack({
    consultationId,
    patientId,
    doctorId,
    txRef,
  }: Awaited<ReturnType<typeof disputedConsultation>>) {
    const [refund] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(refund).toMatchObject({ amountSantim: PART_SANTIM, status: "succeeded", reviewReason: null });
    expect((await db.select().from(escrows).where(eq(escrows.consultationId, consultationId)))[0]!.status).toBe("charged_back");
    const [reversed] = await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `payment:${txRef}:reversed`));
    // Taken back from the doctor and the platform: what the decision released to them, not the whole payment.
    expect(reversed).toMatchObject({ doctorId });
    expect(await available(doctorId)).toBe(0);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "refunds_in_transit", consultationId)).toBe(0);
    expect((await sandboxTransaction(env, txRef))!.refundedSantim).toBe(CONSULTATION_FEE_SANTIM);
    expect(await differenceOf(txRef)).toEqual([expect.objectContaining({ status: "open" })]);
    expect(await noticesOf(patientId, "money_refunded")).toHaveLength(1);
    expect(await noticesOf(patientId, "payment_charged_back")).toHaveLength(1);
    // Nothing is left for the job or an admin, and Chapa is asked for nothing more.
    expect(await moveRefundsOn(env, config(), new Date(Date.now() + 24 * 60 * MINUTE_MS))).toMatchObject({
      settled: 0,
      accepted: 0,
      review: 0,
    });
    expect(await readSandboxRecord(env, `${REFUNDS_PREFIX}${refund!.reference}`)).toBeNull();
  }

  it("settles a dispute's part refund Chapa has not made when it gives the whole payment back, and charges back only the rest", async () => {
    const disputed = await disputedConsultation();
    // The admin refunds 50 ETB and releases 100 ETB; Chapa cannot be reached, so the refund waits.
    await setSandboxSwitch(env, "refunds", "unreachable");
    expect(await disputed.decide("refund_part")).toEqual({ ok: true });
    expect((await db.select().from(refunds).where(eq(refunds.consultationId, disputed.consultationId)))[0]!.status).toBe("pending");
    await setSandboxSwitch(env, "refunds", "succeed");
    // The patient's bank reverses the whole payment: its webhook is the first word of it.
    expect(await takeBackSandboxTransaction(config(), env, disputed.txRef, "reversed")).toBe(true);
    await expectPartRefundCoveredByTakeBack(disputed);
  });

  it("settles a dispute's part refund that Chapa refuses because it already gave the whole payment back (its webhook late)", async () => {
    const disputed = await disputedConsultation();
    await setSandboxSwitch(env, "webhooks", "late");
    expect(await takeBackSandboxTransaction(config(), env, disputed.txRef, "refunded")).toBe(true);
    // Still disputed here (no word yet): the admin refunds 50 ETB, and Chapa refuses it as not eligible.
    expect(await disputed.decide("refund_part")).toEqual({ ok: true });
    await expectPartRefundCoveredByTakeBack(disputed);
    // The late webhook finds it all done.
    await setSandboxSwitch(env, "webhooks", "on_time");
    expect(await sendHeldSandboxWebhooks(config(), env)).toBe(1);
    await expectPartRefundCoveredByTakeBack(disputed);
  });

  it("makes an admin's decision on what the escrow holds once a chargeback lands while they decide: nothing released, nothing refunded", async () => {
    for (const resolution of ["release", "refund_full", "refund_part"] as const) {
      const disputed = await disputedConsultation();
      // The chargeback lands (its webhook settled) after the decision read the escrow, before it is written.
      let landed = false;
      const DB = {
        prepare: (query: string) => env.DB.prepare(query),
        batch: async (statements: D1PreparedStatement[]) => {
          if (!landed) {
            landed = true;
            expect(await takeBackSandboxTransaction(config(), env, disputed.txRef, "reversed")).toBe(true);
          }
          return env.DB.batch(statements);
        },
      } as unknown as D1Database;
      const outcome = await disputed.decide(resolution, createDatabase(DB));
      expect(landed).toBe(true);
      // Decided again on what it holds now (nothing): resolved with nothing moved, or a part refused as not held.
      expect(outcome).toEqual(resolution === "refund_part" ? { ok: false, reason: "part_not_held", heldSantim: 0 } : { ok: true });
      expect((await db.select().from(escrows).where(eq(escrows.consultationId, disputed.consultationId)))[0]!.status).toBe("charged_back");
      expect(await db.select().from(refunds).where(eq(refunds.consultationId, disputed.consultationId))).toEqual([]);
      expect(await balanceOf(db, "escrow", disputed.consultationId)).toBe(0);
      expect(await available(disputed.doctorId)).toBe(0);
      expect(await differenceOf(disputed.txRef)).toEqual([expect.objectContaining({ status: "open" })]);
    }
  });

  it("releases nothing on a dispute whose payment was charged back, though a late payment's money waits in its escrow", async () => {
    const disputed = await disputedConsultation();
    // A second payment for it, whose refund Chapa refuses: its 150 ETB back in the escrow, for an admin.
    await setSandboxSwitch(env, "refunds", "fail");
    const second = await attemptPaidAtProvider(disputed.consultationId, disputed.patientId);
    await confirmPayment(env, config(), ORIGIN, second, new Date());
    await moveRefundsOn(env, config(), new Date());
    expect((await db.select().from(refunds).where(eq(refunds.consultationId, disputed.consultationId)))[0]!.status).toBe("failed");
    await setSandboxSwitch(env, "refunds", "succeed");
    // The first payment is charged back while the dispute is open: its escrow's money leaves, the late one's stays.
    expect(await takeBackSandboxTransaction(config(), env, disputed.txRef, "reversed")).toBe(true);
    expect(await balanceOf(db, "escrow", disputed.consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
    expect(await disputed.decide("release")).toEqual({ ok: true });
    expect(await available(disputed.doctorId)).toBe(0);
    expect(await balanceOf(db, "escrow", disputed.consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
  });

  it("believes a signed charge.reversed only when Chapa's verify agrees", async () => {
    const { consultationId, txRef } = await paidConsultation();
    const answer = await signedWebhook({ event: "charge.reversed", tx_ref: txRef, status: "reversed", meta: null });
    expect(await answer.text()).toBe("not_taken_back");
    expect((await db.select().from(escrows).where(eq(escrows.consultationId, consultationId)))[0]!.status).toBe("held");
    expect(await differenceOf(txRef)).toHaveLength(0);
    const [payment] = await db
      .select()
      .from(payments)
      .where(inArray(payments.txRef, [txRef]));
    expect(payment!.status).toBe("paid");
    expect((await db.select().from(consultations).where(eq(consultations.id, consultationId)))[0]!.status).toBe("in_progress");
  });
});
