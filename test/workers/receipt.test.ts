// A patient's payment receipt, /patient/payment/{paymentId}/receipt: its owner reads what they paid, when,
// both references, the consultation and where the money is now (held, released, disputed, refunded in
// whole or in part, a late payment's refund), in English or Amharic, without JavaScript; anyone else,
// an attempt never paid and an id that is no payment's are told it does not exist.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { consultations, disputes, payments, refunds } from "~/db/schema";
import { formatDocumentMoment, formatMoment } from "~/domain/dates";
import { CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { markPaymentFailed } from "~/server/db/payments.server";
import { loadConfig } from "~/server/env.server";
import { openDispute, resolveDispute } from "~/server/money/disputes.server";
import { settleRefundsOf } from "~/server/money/refunds.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";

import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor, signedIn } from "./fixtures";
import { paidAtProvider } from "./money-fixtures";

const config = () => loadConfig(env);
const receiptOf = (paymentId: string) => `/patient/payment/${paymentId}/receipt`;

afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
});

/**
 * The sandbox's refund webhooks, kept from our webhook route, and its answer to the refund lost: a
 * refund then stays "being refunded" until the test settles it, as when the provider's word has not come yet.
 */
async function holdRefundWebhooks() {
  await setSandboxSwitch(env, "refunds", "timeout_after_taking");
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    return request.url === `${ORIGIN}/payments/webhook` ? new Response("ok") : realFetch(input, init);
  });
}

/** What the provider's refund webhook does: settles our refund of that payment by what the provider says (and, for a part, by its word on the amount). */
async function settleRefundByItsWebhook(refund: { paymentId: string; reference: string; amountSantim: number }) {
  const payment = await db.query.payments.findFirst({ where: eq(payments.id, refund.paymentId) });
  return settleRefundsOf(
    env,
    config(),
    { txRef: payment!.txRef, reference: refund.reference, amountSantim: refund.amountSantim },
    new Date(),
  );
}

/** A consultation accepted by a doctor, with an attempt recorded; `paid` has the sandbox say it was paid. */
async function attempt({ paid = true, windowLeftMs = 14 * 60_000 } = {}) {
  const made = await paidAtProvider({ paid, windowLeftMs });
  const payment = (await db.query.payments.findFirst({ where: eq(payments.txRef, made.txRef) }))!;
  const patient = new Visitor(await sessionCookieFor(made.patientId));
  return { ...made, paymentId: payment.id, patient };
}

/** A consultation paid in time: its payment confirmed and its fee held in escrow. */
async function paidConsultation() {
  const paid = await attempt();
  expect((await confirmPayment(env, config(), ORIGIN, paid.txRef, new Date())).kind).toBe("confirmed");
  const payment = (await db.query.payments.findFirst({ where: eq(payments.id, paid.paymentId) }))!;
  return { ...paid, payment };
}

/** The doctor ended it a minute ago (the end move's own columns, as the fixtures write rows). */
async function ended(consultationId: string) {
  await db
    .update(consultations)
    .set({ status: "completed", completedAt: new Date(Date.now() - 60_000), diagnosis: "Contact dermatitis" })
    .where(eq(consultations.id, consultationId));
}

/** The patient disputes it and an admin decides: a refund of all of it, or of `partSantim`. */
async function refundedByDispute(paid: Awaited<ReturnType<typeof paidConsultation>>, partSantim: number | null) {
  await ended(paid.consultationId);
  const context = { db, config: config() };
  const words = { reason: "not_helpful" as const, words: "The advice did not help." };
  expect(await openDispute(context, paid.patientId, paid.consultationId, words, new Date())).toEqual({ ok: true });
  const dispute = (await db.query.disputes.findFirst({ where: eq(disputes.consultationId, paid.consultationId) }))!;
  const decision = partSantim
    ? { resolution: "refund_part" as const, refundPartSantim: partSantim, note: "Half of it." }
    : { resolution: "refund_full" as const, refundPartSantim: null, note: "All of it." };
  expect(await resolveDispute(env, context, await createUser("admin"), dispute.id, decision, new Date())).toEqual({ ok: true });
  return (await db.query.refunds.findFirst({ where: eq(refunds.paymentId, paid.paymentId) }))!;
}

async function receiptHtml(visitor: Visitor, paymentId: string) {
  const response = await visitor.get(receiptOf(paymentId));
  expect(response.status).toBe(200);
  return response.text();
}

/** The receipt's state: its short word and its sentence. */
function stateIn(html: string) {
  const word = /data-testid="receipt-state">([^<]*)</.exec(html)?.[1];
  const line = /data-testid="receipt-state-line">([^<]*)</.exec(html)?.[1];
  return { word, line };
}

describe("a payment's receipt", () => {
  it("shows its owner the amount, the date, both references, the consultation and the escrow, in English and in Amharic", async () => {
    const { patient, paymentId, txRef, consultationId, payment } = await paidConsultation();
    expect(payment.providerReference).toMatch(/\S/);

    const english = await receiptHtml(patient, paymentId);
    expect(english).toContain("<title>Payment receipt · Qoda</title>");
    expect(english).toContain("a medical brokerage");
    expect(english).toContain('data-testid="receipt-amount">150 ETB<');
    expect(english).toContain(formatMoment(payment.paidAt!, "en"));
    // With the Ethiopian date beside it, as on every document.
    expect(english).toContain(formatDocumentMoment(payment.paidAt!, "en"));
    expect(formatDocumentMoment(payment.paidAt!, "en")).toMatch(/\(\S+ \d{1,2} ቀን \d{4} ዓ\.ም\.\)$/);
    expect(english).toContain(`data-testid="receipt-tx-ref">${txRef}<`);
    expect(english).toContain(`data-testid="receipt-provider-reference">${payment.providerReference}<`);
    expect(english).toContain(`href="/patient/consultation/${consultationId}"`);
    expect(english).toContain(`Consultation ${consultationId.slice(0, 8)}`);
    expect(english).toContain("What escrow means");
    expect(stateIn(english)).toEqual({
      word: "Held in escrow",
      line: "Your payment of 150 ETB is held in escrow by Qoda. The doctor is paid only after the consultation has ended.",
    });
    // Complete without script: the Print button comes only with JavaScript; on paper the site's header and footer are gone.
    expect(english).not.toContain(">Print</button>");
    expect(english).toMatch(/<header class="[^"]*print:hidden/);
    expect(english).toMatch(/<footer class="[^"]*print:hidden/);

    await patient.get("/?lng=am");
    const amharic = await receiptHtml(patient, paymentId);
    expect(amharic).toContain("<title>የክፍያ ደረሰኝ · Qoda</title>");
    expect(amharic).toContain('data-testid="receipt-amount">150 ብር<');
    // On the Ethiopian calendar and a 24-hour clock ("ኅዳር 16 ቀን 2019 ዓ.ም. 15:30"), as workerd formats it.
    expect(formatMoment(payment.paidAt!, "am")).toMatch(/^\S+ \d{1,2} ቀን \d{4} ዓ\.ም\. \d{2}:\d{2}$/);
    expect(amharic).toContain(formatMoment(payment.paidAt!, "am"));
    expect(amharic).toContain("የ«ቆዳ» ማጣቀሻ ቁጥር");
    expect(amharic).toContain(txRef);
    expect(stateIn(amharic).word).toBe("በአደራ ሂሳብ ተይዟል");
    expect(stateIn(amharic).line).toContain("የከፈሉት 150 ብር በአደራ ሂሳብ ተይዟል።");
  });

  it("is linked from the payment's panel, and says the money was released once the patient confirms", async () => {
    const { patient, paymentId, consultationId } = await paidConsultation();
    const page = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(page.html).toContain(`href="${receiptOf(paymentId)}"`);

    await ended(consultationId);
    const held = stateIn(await receiptHtml(patient, paymentId));
    expect(held.word).toBe("Held in escrow");
    expect(held.line).toContain("It will be released to Dr. Test on");
    // The receipt has no form: "release it now" belongs to the consultation's page.
    expect(held.line).not.toContain("release it now");
    const feedbackPage = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(feedbackPage.html).toContain(`href="${receiptOf(paymentId)}"`);
    expect(feedbackPage.html).toContain("If your consultation is complete, you can release it now.");

    await patient.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" });
    const released = stateIn(await receiptHtml(patient, paymentId));
    expect(released.word).toBe("Released to the doctor");
    expect(released.line).toMatch(/^Your payment of 150 ETB was released to Dr\. Test on .+\.$/);
  });

  it("says a disputed payment stays in escrow while the dispute is decided", async () => {
    const paid = await paidConsultation();
    await ended(paid.consultationId);
    const words = { reason: "other" as const, words: "No answer." };
    expect(await openDispute({ db, config: config() }, paid.patientId, paid.consultationId, words, new Date())).toEqual({ ok: true });
    expect(stateIn(await receiptHtml(paid.patient, paid.paymentId))).toEqual({
      word: "Held in escrow while your dispute is decided",
      line: "Your payment of 150 ETB stays in escrow while your dispute is decided.",
    });
  });

  it("says a payment refunded after a dispute is being refunded, then refunded on its day", async () => {
    await holdRefundWebhooks();
    const paid = await paidConsultation();
    const refund = await refundedByDispute(paid, null);
    expect(refund).toMatchObject({ status: "pending", amountSantim: CONSULTATION_FEE_SANTIM });
    expect(stateIn(await receiptHtml(paid.patient, paid.paymentId))).toEqual({
      word: "Being refunded",
      line: "Your payment of 150 ETB is being refunded to you.",
    });

    expect(await settleRefundByItsWebhook(refund)).toBe("settled");
    const refunded = stateIn(await receiptHtml(paid.patient, paid.paymentId));
    expect(refunded.word).toBe("Refunded");
    expect(refunded.line).toMatch(/^Your payment of 150 ETB was refunded to you on .+\.$/);

    await paid.patient.get("/?lng=am");
    const amharic = stateIn(await receiptHtml(paid.patient, paid.paymentId));
    expect(amharic.word).toBe("ተመላሽ ተደርጓል");
    expect(amharic.line).toMatch(/^የከፈሉት 150 ብር በ\S+ \d{1,2} ቀን \d{4} ዓ\.ም\. ተመላሽ ተደርጎልዎታል።$/);
  });

  it("shows both amounts of a part refund: what comes back and what the doctor was paid", async () => {
    await holdRefundWebhooks();
    const paid = await paidConsultation();
    const refund = await refundedByDispute(paid, 5_050);
    expect(stateIn(await receiptHtml(paid.patient, paid.paymentId))).toEqual({
      word: "Partly being refunded",
      line: "50.50 ETB of your payment of 150 ETB is being refunded to you; the other 99.50 ETB was released to Dr. Test.",
    });
    // The consultation's own panel says the same.
    const page = await paid.patient.follow(await paid.patient.get(`/patient/consultation/${paid.consultationId}`));
    expect(page.html).toContain("50.50 ETB of your payment of 150 ETB is being refunded to you");

    expect(await settleRefundByItsWebhook(refund)).toBe("settled");
    const settled = stateIn(await receiptHtml(paid.patient, paid.paymentId));
    expect(settled.word).toBe("Partly refunded");
    expect(settled.line).toMatch(
      /^50\.50 ETB of your payment of 150 ETB was refunded to you on .+; the other 99\.50 ETB was released to Dr\. Test\.$/,
    );
  });

  it("says a payment that came too late is being refunded, then refunded, and the consultation's page links to it", async () => {
    await holdRefundWebhooks();
    const late = await attempt();
    // The window closed before the provider's word came.
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, late.consultationId));
    expect((await confirmPayment(env, config(), ORIGIN, late.txRef, new Date())).kind).toBe("late");

    const html = await receiptHtml(late.patient, late.paymentId);
    expect(html).toContain('data-testid="receipt-amount">150 ETB<');
    expect(stateIn(html)).toEqual({
      word: "Being refunded",
      line: "A payment of 150 ETB for this consultation arrived after the payment time had run out. It is recorded and will be refunded to you.",
    });
    const page = await late.patient.follow(await late.patient.get(`/patient/consultation/${late.consultationId}`));
    expect(page.html).toContain(`href="${receiptOf(late.paymentId)}"`);

    const refund = (await db.query.refunds.findFirst({ where: eq(refunds.paymentId, late.paymentId) }))!;
    expect(await settleRefundByItsWebhook(refund)).toBe("settled");
    const refunded = stateIn(await receiptHtml(late.patient, late.paymentId));
    expect(refunded.word).toBe("Refunded");
    expect(refunded.line).toMatch(/^A payment of 150 ETB for this consultation that could not be used was refunded to you on .+\.$/);
    const after = await late.patient.follow(await late.patient.get(`/patient/consultation/${late.consultationId}`));
    expect(after.html).toContain(refunded.line);
  });
});

describe("who may see a receipt", () => {
  const notFound = async (visitor: Visitor, path: string) => {
    const response = await visitor.get(path);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).toContain("Page not found");
  };

  it("tells another patient, and the owner asking for an attempt never paid or an id that is no payment, that it does not exist", async () => {
    const { paymentId } = await paidConsultation();
    const stranger = new Visitor((await signedIn("patient")).cookie);
    await notFound(stranger, receiptOf(paymentId));

    const unpaid = await attempt({ paid: false });
    await notFound(unpaid.patient, receiptOf(unpaid.paymentId));
    await markPaymentFailed(db, unpaid.txRef, new Date());
    expect(
      await db.query.payments.findFirst({ where: and(eq(payments.id, unpaid.paymentId), eq(payments.status, "failed")) }),
    ).toBeDefined();
    await notFound(unpaid.patient, receiptOf(unpaid.paymentId));

    for (const id of [crypto.randomUUID(), "not-a-payment", "1'; DROP TABLE payments;--", "x".repeat(3_000)])
      await notFound(unpaid.patient, receiptOf(encodeURIComponent(id)));
  });

  it("sends a doctor (even the one paid) and an admin to access denied, and a visitor to sign in first", async () => {
    const { paymentId, doctorId } = await paidConsultation();
    const path = receiptOf(paymentId);
    for (const cookie of [await sessionCookieFor(doctorId), (await signedIn("admin")).cookie]) {
      const response = await new Visitor(cookie).get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/access-denied");
    }
    const anonymous = await new Visitor().get(path);
    expect(anonymous.headers.get("Location")).toBe(`/login?redirect=${encodeURIComponent(path)}`);
  });
});
