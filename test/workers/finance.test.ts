// The admins' finance page in the real D1: the books (each account and their sum, zero), the money in
// flight, a payout run and a failed refund asked again from plain forms, and the journal as CSV.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { auditLog, consultations, doctorPayoutAccounts, ledgerEntries, payouts, refunds } from "~/db/schema";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { confirmConsultationComplete } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";
import { moveRefundsOn } from "~/server/money/refunds.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";

import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { config, endedAgo, paidAtProvider, paidConsultation } from "./money-fixtures";

afterEach(async () => {
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
});

async function admin() {
  const userId = await createUser("admin");
  return { userId, visitor: new Visitor(await sessionCookieFor(userId)) };
}

const text = (html: string) => html.replace(/<!-- -->/g, "");

describe("the finance page", () => {
  it("shows every account's balance and a sum of zero, in both languages", async () => {
    await paidConsultation();
    const { visitor } = await admin();
    const html = text(await (await visitor.get("/admin/finance")).text());
    expect(html).toContain("The books balance: every entry&#x27;s lines sum to zero");
    expect(html).toMatch(/data-testid="books-total">0\.00</);
    expect(html).toContain("Held in escrow");
    expect(html).toContain("Owed to doctors");
    const amharic = text(await (await visitor.get("/admin/finance?lng=am")).text());
    expect(amharic).toContain("የሂሳብ መዝገቡ ሚዛናዊ ነው");
    expect(amharic).toContain("የአደራ ሂሳብ");
  });

  it("runs payouts on demand from a plain form, once for a double click", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    await endedAgo(consultationId, 60_000);
    await confirmConsultationComplete(db, patientId, consultationId, new Date());
    const now = new Date();
    await db.insert(doctorPayoutAccounts).values({
      doctorId,
      bankCode: "855",
      bankName: "telebirr",
      accountName: "Test Doctor",
      accountNumber: "0911223344",
      createdAt: now,
      updatedAt: now,
    });
    const { userId, visitor } = await admin();
    const answers = await Promise.all([1, 2].map(() => visitor.post("/admin/finance", { intent: "run-payouts" })));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    const sent = await db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ requestedBy: userId, amountSantim: 12_000 });
    const page = text(await (await visitor.get("/admin/finance")).text());
    expect(page).toContain(sent[0]!.reference);
    expect(page).toContain("to Dr. Test doctor at telebirr");
  });

  it("shows a failed refund with the provider's words, and asks again once", async () => {
    const { consultationId, txRef } = await paidAtProvider();
    // Paid after the window closed: refunded through the provider at once, which says no.
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultationId));
    await setSandboxSwitch(env, "refunds", "fail");
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("late");
    // Asked again by the job with backoff, then failed for good and shown to admins.
    for (let hour = 3; hour <= 30; hour += 3) await moveRefundsOn(env, config(), new Date(Date.now() + hour * 60 * 60_000));
    const [failed] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(failed).toMatchObject({ status: "failed" });
    // Its amount is back in escrow, for an admin.
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-15_000);

    const { userId, visitor } = await admin();
    const page = text(await (await visitor.get("/admin/finance")).text());
    expect(page).toContain(failed!.reference);
    expect(failed!.lastError).toContain("not eligible");
    expect(page).toContain(`The payment service said (after 1 try): ${failed!.lastError!.replace(/"/g, "&quot;")}`);
    expect(page).toContain("Ask the payment service again");

    await setSandboxSwitch(env, "refunds", "succeed");
    const answers = await Promise.all([1, 2].map(() => visitor.post("/admin/finance", { intent: "retry-refund", refundId: failed!.id })));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    const all = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(all).toHaveLength(2);
    const retried = all.find((refund) => refund.id !== failed!.id)!;
    expect(retried).toMatchObject({ requestedBy: userId, amountSantim: 15_000 });
    expect(retried.status).not.toBe("failed");
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "refund.retried"), eq(auditLog.targetId, consultationId)));
    expect(audits).toHaveLength(1);
    expect(text(await (await visitor.get("/admin/finance")).text())).not.toContain("Ask the payment service again");
  });

  it("refuses what it does not understand, and other people", async () => {
    const { visitor } = await admin();
    const refused = await visitor.post("/admin/finance", { intent: "retry-refund", refundId: "nope" });
    expect(refused.status).toBe(302);
    const page = text(await (await visitor.get("/admin/finance")).text());
    expect(page).toContain("The request was not understood.");
    const patient = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await patient.post("/admin/finance", { intent: "run-payouts" })).headers.get("Location")).toBe("/access-denied");
    expect((await patient.get("/admin/finance/journal.csv")).status).not.toBe(200);
  });

  it("gives the accountant the whole journal as CSV, debits and credits balanced", async () => {
    const { txRef } = await paidConsultation();
    const { visitor } = await admin();
    const csv = await visitor.get("/admin/finance/journal.csv");
    expect(csv.headers.get("Content-Disposition")).toContain("qoda-journal.csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      '"date_utc","entry_id","idempotency_key","kind","account","subject","debit_etb","credit_etb","consultation_id","doctor_id","payment_id"',
    );
    const mine = lines.filter((line) => line.includes(`payment:${txRef}:captured`));
    expect(mine).toHaveLength(3);
    const cells = (line: string) => line.slice(1, -1).split('","');
    const debit = mine.reduce((sum, line) => sum + Number(cells(line)[6] || 0), 0);
    const credit = mine.reduce((sum, line) => sum + Number(cells(line)[7] || 0), 0);
    expect(debit).toBeCloseTo(150, 2);
    expect(credit).toBeCloseTo(150, 2);
    expect(
      await db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.idempotencyKey, `payment:${txRef}:captured`)),
    ).toHaveLength(1);
  });
});
