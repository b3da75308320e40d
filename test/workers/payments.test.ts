// Paying for a consultation: the sandbox checkout end to end, the webhook's defences, exactly-once
// confirmation under replays and races, late payments, and the Chapa adapter against a stand-in that
// answers in Chapa's formats.
import { env, runDurableObjectAlarm, SELF } from "cloudflare:test";
import { and, count, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { afterEach, describe, expect, it, vi } from "vitest";

import { auditLog, consultations, notifications, payments, telegramLinks, telegramOutbox } from "~/db/schema";
import { CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { recordPaymentAttempt } from "~/server/db/payments.server";
import { loadConfig } from "~/server/env.server";
import { runHousekeeping } from "~/server/jobs.server";
import { chapaProvider } from "~/server/payments/chapa.server";
import { sandboxProvider } from "~/server/payments/sandbox.server";
import { sandboxTransaction } from "~/server/payments/sandbox-store.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { newTxRef, startPayment } from "~/server/payments/start-payment.server";
import { readWebhookEvent } from "~/server/payments/webhook-event.server";
import { signWebhookBody } from "~/server/payments/webhook-signature.server";

import type { ConsultationRoom } from "../../party/consultation";
import { emailsTo } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { CHAPA_API_URL, CHAPA_SECRET_KEY, CHAPA_WEBHOOK_SECRET, chapaStandIn, chapaWebhook } from "./chapa-stand-in";
import { checkoutOf, createConsultation, createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { openConsultationSocket } from "./sockets";

afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
});

const config = () => loadConfig(env);

/** Thrown where the Worker would have been killed. */
class WorkerDied extends Error {}

/** A binding whose first use kills the Worker: whatever its caller does after that never happens. */
const diesWhenCalled = <Binding extends object>(binding: Binding) =>
  new Proxy(binding, {
    get() {
      throw new WorkerDied("the Worker died");
    },
  });
const sandboxSecret = () => sandboxProvider(config(), env, ORIGIN).webhookSecret;

/** The Worker's calls to its own site (the sandbox posting its webhook) reach the Worker, as under wrangler dev. */
function routeOwnCallsToWorker() {
  const realFetch = globalThis.fetch;
  const webhookCalls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(`${ORIGIN}/payments/webhook`)) webhookCalls.push(url);
    return url.startsWith(ORIGIN) ? SELF.fetch(new Request(input, init)) : realFetch(input, init);
  });
  return webhookCalls;
}

/** A patient (signed in, as a Visitor) whose request a doctor accepted `acceptedAgoMs` ago, with `windowLeftMs` to pay. */
async function acceptedRequest({ windowLeftMs = 14 * 60_000, acceptedAgoMs = 60_000 } = {}) {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  const now = Date.now();
  const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
    doctorId,
    acceptedAt: new Date(now - acceptedAgoMs),
    paymentDeadlineAt: new Date(now + windowLeftMs),
  });
  const patient = new Visitor(await sessionCookieFor(patientId));
  return { patientId, doctorId, consultation, patient };
}

const consultationNow = async (id: string) => (await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!;
const paymentsOf = (consultationId: string) => db.select().from(payments).where(eq(payments.consultationId, consultationId));
async function auditCount(consultationId: string, action: string) {
  const [row] = await db
    .select({ entries: count() })
    .from(auditLog)
    .where(and(eq(auditLog.targetId, consultationId), eq(auditLog.action, action)));
  return row!.entries;
}

/** The tx_ref the payment page handed out with its form. */
async function formTxRef(patient: Visitor, consultationId: string) {
  const page = await patient.get(`/patient/payment/${consultationId}`);
  expect(page.status).toBe(200);
  const txRef = /name="txRef" value="([^"]+)"/.exec(await page.text())?.[1];
  expect(txRef).toMatch(/^qoda-/);
  return txRef!;
}

async function pay(patient: Visitor, consultationId: string, txRef?: string) {
  return patient.post(`/patient/payment/${consultationId}`, { intent: "pay", txRef: txRef ?? (await formTxRef(patient, consultationId)) });
}

async function postWebhook(body: string, headers: Record<string, string>) {
  return SELF.fetch(`${ORIGIN}/payments/webhook`, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
}

/** A Pay that reached the sandbox checkout; returns its tx_ref. */
async function checkoutStarted(patient: Visitor, consultationId: string) {
  const response = await pay(patient, consultationId);
  expect(response.status).toBe(302);
  const checkout = new URL(response.headers.get("Location")!, ORIGIN);
  expect(checkout.pathname).toMatch(/^\/dev\/payments\/checkout\/qoda-/);
  return decodeURIComponent(checkout.pathname.split("/").pop()!);
}

describe("paying in the sandbox", () => {
  it("records the attempt, checks out, and the signed webhook starts the consultation", async () => {
    const webhookCalls = routeOwnCallsToWorker();
    const { consultation, patient, doctorId } = await acceptedRequest();
    const doctorSocket = await openConsultationSocket(consultation.id, await sessionCookieFor(doctorId));
    await doctorSocket.until((events) => events.length > 0);

    const txRef = await checkoutStarted(patient, consultation.id);
    const [attempt] = await paymentsOf(consultation.id);
    expect(attempt).toMatchObject({
      txRef,
      status: "initialized",
      provider: "sandbox",
      amountSantim: CONSULTATION_FEE_SANTIM,
      currency: "ETB",
    });
    expect(attempt!.checkoutUrl).toBe(`${ORIGIN}/dev/payments/checkout/${txRef}`);

    const checkoutPage = await patient.get(`/dev/payments/checkout/${txRef}`);
    expect(await checkoutPage.text()).toContain("150");
    const paid = await patient.post(`/dev/payments/checkout/${txRef}`, { outcome: "pay" });
    expect(paid.headers.get("Location")).toBe(`${ORIGIN}/payments/return/${txRef}`);
    expect(webhookCalls).toHaveLength(1);

    expect(await consultationNow(consultation.id)).toMatchObject({ status: "in_progress", paymentDeadlineAt: null });
    expect((await paymentsOf(consultation.id))[0]).toMatchObject({ status: "paid", needsAdminReview: false });
    // The doctor hears it live, and the room's countdown is off.
    await doctorSocket.until((events) => events.some((event) => event.status === "in_progress" && event.reason === "paid"));
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    expect(await room.paymentDeadline()).toBeNull();
    doctorSocket.close();

    // The patient's browser comes back after the webhook: told it is paid, nothing moves twice.
    const back = await patient.get(`/payments/return/${txRef}`);
    expect(back.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    expect(await auditCount(consultation.id, "consultation.paid")).toBe(1);
    // Paying again is refused as already completed.
    const again = await pay(patient, consultation.id, `qoda-${crypto.randomUUID()}`);
    expect(again.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
  });

  it("makes one payment of a form sent twice, both going to the same checkout", async () => {
    const { consultation, patient } = await acceptedRequest();
    const txRef = await formTxRef(patient, consultation.id);
    const [first, second] = await Promise.all([pay(patient, consultation.id, txRef), pay(patient, consultation.id, txRef)]);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(first.headers.get("Location")).toBe(second.headers.get("Location"));
    expect(await paymentsOf(consultation.id)).toHaveLength(1);
  });

  it("sends a second tab's Pay to the checkout already open, so only one payment can be made", async () => {
    const { consultation, patient } = await acceptedRequest();
    const [firstTab, secondTab] = [await formTxRef(patient, consultation.id), await formTxRef(patient, consultation.id)];
    expect(firstTab).not.toBe(secondTab);
    const first = await pay(patient, consultation.id, firstTab);
    const second = await pay(patient, consultation.id, secondTab);
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect((await paymentsOf(consultation.id)).map((attempt) => attempt.txRef)).toEqual([firstTab]);
  });

  it("starts a fresh attempt for a new acceptance, not the checkout of an earlier one", async () => {
    const { consultation, patient } = await acceptedRequest();
    const earlier = await checkoutStarted(patient, consultation.id);
    // The window closed and another doctor accepted since: the old checkout belongs to the old window.
    await db
      .update(consultations)
      .set({ acceptedAt: new Date(Date.now() + 1) })
      .where(eq(consultations.id, consultation.id));
    const later = await checkoutStarted(patient, consultation.id);
    expect(later).not.toBe(earlier);
    expect(await paymentsOf(consultation.id)).toHaveLength(2);
  });

  it("says Payment Failed when the patient fails the checkout, and Pay works again", async () => {
    routeOwnCallsToWorker();
    const { consultation, patient } = await acceptedRequest();
    const txRef = await checkoutStarted(patient, consultation.id);
    await patient.post(`/dev/payments/checkout/${txRef}`, { outcome: "fail" });
    const back = await patient.get(`/payments/return/${txRef}`);
    expect(back.headers.get("Location")).toBe(`/patient/payment/${consultation.id}`);
    const page = await (await patient.get(`/patient/payment/${consultation.id}`)).text();
    expect(page).toContain("Payment Failed");
    expect((await paymentsOf(consultation.id))[0]!.status).toBe("failed");
    expect((await consultationNow(consultation.id)).status).toBe("accepted_awaiting_payment");

    // The same (failed) form sent again becomes a fresh attempt with a reference of its own.
    const retry = await pay(patient, consultation.id, txRef);
    expect(retry.status).toBe(302);
    const attempts = await paymentsOf(consultation.id);
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((attempt) => attempt.txRef)).size).toBe(2);
  });

  it("sends a request that is not awaiting payment to the dashboard, and a stranger gets 404", async () => {
    const patientId = await createUser("patient");
    const pending = await createConsultation(patientId, "pending");
    const patient = new Visitor(await sessionCookieFor(patientId));
    const response = await pay(patient, pending.id, `qoda-${crypto.randomUUID()}`);
    expect(response.headers.get("Location")).toBe("/patient/dashboard");
    expect(await paymentsOf(pending.id)).toHaveLength(0);

    const { consultation } = await acceptedRequest();
    const stranger = await pay(patient, consultation.id, `qoda-${crypto.randomUUID()}`);
    expect(stranger.status).toBe(404);
    expect(await paymentsOf(consultation.id)).toHaveLength(0);
  });

  it("refuses a forged form: a tx_ref that is not ours, or another consultation's", async () => {
    const { consultation, patient } = await acceptedRequest();
    expect((await pay(patient, consultation.id, "../../etc")).status).toBe(400);
    const other = await acceptedRequest();
    const othersRef = await checkoutStarted(other.patient, other.consultation.id);
    const response = await pay(patient, consultation.id, othersRef);
    expect(response.headers.get("Location")).toBe("/patient/dashboard");
    expect(await paymentsOf(consultation.id)).toHaveLength(0);
  });
});

describe("the payment webhook", () => {
  async function startedPayment() {
    const request = await acceptedRequest();
    const txRef = await checkoutStarted(request.patient, request.consultation.id);
    return { ...request, txRef };
  }
  /** The sandbox says the patient paid (without its webhook: the tests send their own). */
  async function markPaidAtSandbox(txRef: string, changes: Record<string, unknown> = {}) {
    const transaction = await sandboxTransaction(env, txRef);
    await env.FILES.put(`payment-sandbox/${txRef}`, JSON.stringify({ ...transaction, status: "success", ...changes }));
  }

  it("refuses a bad signature, the static header alone, and unknown references, changing nothing", async () => {
    const { consultation, txRef } = await startedPayment();
    await markPaidAtSandbox(txRef);
    const { body, signature, staticSignature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });

    expect((await postWebhook(body, { "x-chapa-signature": "0".repeat(64) })).status).toBe(401);
    expect((await postWebhook(body, { "chapa-signature": staticSignature })).status).toBe(401);
    expect((await postWebhook(body, {})).status).toBe(401);
    // A signature of another body does not carry over.
    expect((await postWebhook(body.replace("150.00", "1.00"), { "x-chapa-signature": signature })).status).toBe(401);
    const unknown = await chapaWebhook(sandboxSecret(), { tx_ref: `qoda-${crypto.randomUUID()}` });
    expect((await postWebhook(unknown.body, { "x-chapa-signature": unknown.signature })).status).toBe(404);
    const notJson = "tx_ref=abc";
    expect((await postWebhook(notJson, { "x-chapa-signature": await signWebhookBody(sandboxSecret(), notJson) })).status).toBe(400);
    expect((await postWebhook("x".repeat(20_000), { "x-chapa-signature": signature })).status).toBe(413);

    expect((await consultationNow(consultation.id)).status).toBe("accepted_awaiting_payment");
    expect((await paymentsOf(consultation.id))[0]!.status).toBe("initialized");
  });

  it("acts only on what verify shows: a wrong amount or currency, or an unpaid transaction, starts nothing", async () => {
    for (const changes of [{ amountSantim: 1 }, { currency: "USD" }, { status: "pending" }]) {
      const { consultation, txRef } = await startedPayment();
      if (changes.status !== "pending") await markPaidAtSandbox(txRef, changes);
      // The webhook claims success for the right amount; the provider's own record says otherwise.
      const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
      const response = await postWebhook(body, { "x-chapa-signature": signature });
      expect(response.status).toBe(changes.status === "pending" ? 200 : 422);
      expect((await consultationNow(consultation.id)).status).toBe("accepted_awaiting_payment");
      expect((await paymentsOf(consultation.id))[0]!.status).toBe("initialized");
    }
  });

  it("records a provider that disagrees with us, with what it said, and flags it for an admin once", async () => {
    const { consultation, txRef } = await startedPayment();
    await markPaidAtSandbox(txRef, { amountSantim: 1 });
    const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
    const replays = await Promise.all(Array.from({ length: 5 }, () => postWebhook(body, { "x-chapa-signature": signature })));
    expect(replays.map((response) => response.status)).toEqual([422, 422, 422, 422, 422]);
    const [flagged] = await paymentsOf(consultation.id);
    expect(flagged).toMatchObject({ status: "initialized", needsAdminReview: true, reviewReason: "provider_disagrees" });
    expect(JSON.parse(flagged!.providerAnswer!)).toEqual({ status: "success", amount: 1, currency: "ETB", txRef });
    expect(await auditCount(consultation.id, "payment.flagged")).toBe(1);

    // The admins see it, with the provider's words, and are not offered to mark it refunded.
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    const page = await (await admin.get("/admin/payments")).text();
    const card = page.slice(page.indexOf(`data-tx-ref="${txRef}"`));
    expect(card).toContain("The provider&#x27;s record does not match ours");
    expect(card).toContain("The provider said: success, 1 ETB");
    expect(card.slice(0, card.indexOf("</li>"))).not.toContain("Record a refund made outside");
  });

  it("reads refunded, reversed and a status it does not know as what they are: flagged, never paid, never pending", async () => {
    for (const status of ["refunded", "reversed", "on_hold"]) {
      const { consultation, txRef } = await startedPayment();
      await markPaidAtSandbox(txRef, { status });
      const outcome = await confirmPayment(env, config(), ORIGIN, txRef, new Date());
      expect(outcome).toMatchObject({ kind: "flagged", status: status === "on_hold" ? "unknown" : status });
      expect((await consultationNow(consultation.id)).status).toBe("accepted_awaiting_payment");
      const [flagged] = await paymentsOf(consultation.id);
      expect(flagged).toMatchObject({ status: "initialized", needsAdminReview: true, reviewReason: "provider_status" });
      expect(JSON.parse(flagged!.providerAnswer!).status).toBe(status);
    }
  });

  it("moves the consultation once for 10 replays", async () => {
    const { consultation, txRef } = await startedPayment();
    await markPaidAtSandbox(txRef);
    const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
    const answers = await Promise.all(Array.from({ length: 10 }, () => postWebhook(body, { "x-chapa-signature": signature })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const after = await consultationNow(consultation.id);
    expect(after.status).toBe("in_progress");
    expect(await auditCount(consultation.id, "consultation.paid")).toBe(1);
    // Later replays (Chapa retries for 72 hours) change nothing either.
    await postWebhook(body, { "x-chapa-signature": signature });
    expect((await consultationNow(consultation.id)).updatedAt).toEqual(after.updatedAt);
  });

  it("tells both people once, in the confirmation's own batch: a Worker that dies right after it, then Chapa's retries, leave one “payment received” each", async () => {
    const { consultation, txRef, patientId, doctorId } = await startedPayment();
    await db.insert(telegramLinks).values({ userId: patientId, chatId: String(100_000_000 + Math.floor(Math.random() * 900_000_000)) });
    await markPaidAtSandbox(txRef);
    // The first thing after the batch is the room's call: the Worker dies there, and nothing after it runs.
    const dying = { ...env, ConsultationRoom: diesWhenCalled(env.ConsultationRoom) };
    await expect(confirmPayment(dying, config(), ORIGIN, txRef, new Date())).rejects.toThrow(WorkerDied);
    expect((await consultationNow(consultation.id)).status).toBe("in_progress");

    const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
    for (let retry = 0; retry < 3; retry += 1) expect((await postWebhook(body, { "x-chapa-signature": signature })).status).toBe(200);
    const told = (userId: string) =>
      db
        .select({ link: notifications.link })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.kind, "payment_received")));
    expect(await told(patientId)).toEqual([{ link: `/patient/consultation/${consultation.id}` }]);
    expect(await told(doctorId)).toEqual([{ link: `/doctor/consultation/${consultation.id}` }]);
    // Its Telegram message too (the patient linked a chat), queued once with it.
    const telegram = await db
      .select({ kind: telegramOutbox.kind })
      .from(telegramOutbox)
      .where(and(eq(telegramOutbox.userId, patientId), eq(telegramOutbox.consultationId, consultation.id)));
    expect(telegram).toEqual([{ kind: "payment_received" }]);
  });

  /** A Pay begun `minutesAgo` (its acceptance earlier still), as if its patient paid or left then. */
  async function attemptBegun(minutesAgo: number) {
    const request = await acceptedRequest({ acceptedAgoMs: (minutesAgo + 1) * 60_000 });
    const txRef = await checkoutStarted(request.patient, request.consultation.id);
    const at = new Date(Date.now() - minutesAgo * 60_000);
    await db.update(payments).set({ createdAt: at, updatedAt: at }).where(eq(payments.txRef, txRef));
    return { ...request, txRef };
  }
  const paymentNow = async (txRef: string) => (await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) }))!;

  it("finds, from the scheduled job, a payment whose webhook never came and whose patient left, and starts the consultation once", async () => {
    const { consultation, txRef, doctorId } = await attemptBegun(5);
    await markPaidAtSandbox(txRef);
    const report = await runHousekeeping(env, new Date());
    expect(report.payments.confirmed).toBeGreaterThanOrEqual(1);
    expect((await consultationNow(consultation.id)).status).toBe("in_progress");
    expect(await paymentNow(txRef)).toMatchObject({ status: "paid", needsAdminReview: false });
    expect(await auditCount(consultation.id, "consultation.paid")).toBe(1);
    const doctorNotices = await db.select().from(notifications).where(eq(notifications.userId, doctorId));
    expect(doctorNotices.map((notice) => notice.kind)).toContain("payment_received");
    // The job running again (or at the same time) changes nothing more.
    await Promise.all([runHousekeeping(env, new Date()), runHousekeeping(env, new Date())]);
    expect(await auditCount(consultation.id, "consultation.paid")).toBe(1);
  });

  it("asks again about an attempt still open, marks a failed one failed, and leaves a fresh one to its patient", async () => {
    const pending = await attemptBegun(5);
    const failed = await attemptBegun(5);
    await markPaidAtSandbox(failed.txRef, { status: "failed" });
    const fresh = await attemptBegun(0);
    await markPaidAtSandbox(fresh.txRef);
    const before = (await paymentNow(pending.txRef)).updatedAt;
    await runHousekeeping(env, new Date());
    const asked = await paymentNow(pending.txRef);
    expect(asked.status).toBe("initialized");
    expect(asked.updatedAt.getTime()).toBeGreaterThan(before.getTime());
    expect((await paymentNow(failed.txRef)).status).toBe("failed");
    // Still on the checkout page, most likely: the webhook or the return page will say.
    expect((await paymentNow(fresh.txRef)).status).toBe("initialized");
    expect((await consultationNow(fresh.consultation.id)).status).toBe("accepted_awaiting_payment");
  });

  it("keeps a payment the job finds after the window closed as late, for a refund, and tells the patient", async () => {
    const { consultation, txRef, patientId } = await attemptBegun(5);
    await markPaidAtSandbox(txRef);
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultation.id));
    await runHousekeeping(env, new Date());
    expect(await paymentNow(txRef)).toMatchObject({ status: "paid_after_expiry", needsAdminReview: true });
    expect((await consultationNow(consultation.id)).status).toBe("pending");
    const patientEmail = (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, patientId) }))!.email;
    expect((await emailsTo(patientEmail)).filter((mail) => mail.subject.includes("refunded"))).toHaveLength(1);
  });

  it("flags for an admin an attempt still open after a week, instead of asking forever", async () => {
    const { txRef, consultation } = await attemptBegun(7 * 24 * 60 + 1);
    await markPaidAtSandbox(txRef);
    await runHousekeeping(env, new Date());
    await runHousekeeping(env, new Date());
    expect(await paymentNow(txRef)).toMatchObject({ status: "initialized", needsAdminReview: true, reviewReason: "open_too_long" });
    expect(await auditCount(consultation.id, "payment.flagged")).toBe(1);
  });

  it("makes one move when the webhook and the return page race", async () => {
    const { consultation, txRef, patient } = await startedPayment();
    await markPaidAtSandbox(txRef);
    const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
    const [hook, back] = await Promise.all([
      postWebhook(body, { "x-chapa-signature": signature }),
      patient.get(`/payments/return/${txRef}`),
    ]);
    expect(hook.status).toBe(200);
    expect(back.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    expect((await consultationNow(consultation.id)).status).toBe("in_progress");
    expect(await auditCount(consultation.id, "consultation.paid")).toBe(1);
    expect((await paymentsOf(consultation.id)).map((payment) => payment.status)).toEqual(["paid"]);
  });

  it("records a payment that comes after the window as late, returns the request to the queue and tells the patient", async () => {
    // The provider cannot be reached for its refund yet: the page says it will be refunded.
    await setSandboxSwitch(env, "refunds", "unreachable");
    const { consultation, txRef, patientId, patient } = await startedPayment();
    await markPaidAtSandbox(txRef);
    // The window closes before the provider's word arrives (its alarm not yet run).
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultation.id));
    const { body, signature } = await chapaWebhook(sandboxSecret(), { tx_ref: txRef, amount: "150.00" });
    expect((await postWebhook(body, { "x-chapa-signature": signature })).status).toBe(200);
    expect((await postWebhook(body, { "x-chapa-signature": signature })).status).toBe(200);

    expect(await consultationNow(consultation.id)).toMatchObject({ status: "pending", doctorId: null });
    const [late] = await paymentsOf(consultation.id);
    expect(late).toMatchObject({ status: "paid_after_expiry", needsAdminReview: true });
    expect(late!.paidAt).not.toBeNull();
    const patientEmail = (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, patientId) }))!.email;
    const mails = await emailsTo(patientEmail);
    expect(mails.filter((mail) => mail.subject.includes("refunded"))).toHaveLength(1);
    expect(mails.find((mail) => mail.subject.includes("refunded"))!.textBody).toContain("payment window had closed");
    // Audited and told once, however often the provider repeats itself.
    expect(await auditCount(consultation.id, "payment.late")).toBe(1);
    const told = await db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, patientId), eq(notifications.consultationId, consultation.id)));
    expect(told).toEqual([{ kind: "payment_late" }]);
    // The patient's page says so, on every visit.
    const page = await (await patient.get(`/patient/consultation/${consultation.id}`)).text();
    expect(page).toContain("arrived after the payment time had run out");

    // Once an admin has sent the money back, the page says that instead.
    await db
      .update(payments)
      .set({ refundedAt: new Date("2026-11-20T09:00:00Z"), refundedBy: patientId })
      .where(eq(payments.txRef, txRef));
    const afterRefund = await (await patient.get(`/patient/consultation/${consultation.id}`)).text();
    expect(afterRefund).toContain("was refunded to you on 20 Nov 2026");
    expect(afterRefund).not.toContain("will be refunded");
  });

  it("tells a patient who paid twice that the second payment will be refunded, not that time ran out", async () => {
    await setSandboxSwitch(env, "refunds", "unreachable");
    const { consultation, txRef, patientId, patient } = await startedPayment();
    // Two tabs pressed Pay at the same moment, before either had its checkout (a later Pay would follow
    // the open one): two attempts in the same window, and both were paid.
    const secondTxRef = newTxRef();
    await recordPaymentAttempt(db, {
      consultationId: consultation.id,
      patientId,
      txRef: secondTxRef,
      provider: "sandbox",
      amountSantim: 15_000,
      now: new Date(),
    });
    await sandboxProvider(config(), env, ORIGIN).initialize(
      checkoutOf(secondTxRef, { email: "patient@example.com", firstName: "Test", lastName: "Patient" }),
    );
    await markPaidAtSandbox(txRef);
    await markPaidAtSandbox(secondTxRef);
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("confirmed");
    const second = await patient.get(`/payments/return/${secondTxRef}`);
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);

    const page = (await patient.follow(second)).html;
    expect(page).toContain("This consultation was already paid for");
    expect(page).toContain("A second payment of 150 ETB for this consultation, which was already paid for");
    expect(page).not.toContain("run out");
    const patientEmail = (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, patientId) }))!.email;
    const mail = (await emailsTo(patientEmail)).find((message) => message.subject.includes("refunded"));
    expect(mail!.textBody).toContain("a second payment of 150 ETB");
    expect(mail!.textBody).not.toContain("window had closed");
    const told = await db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, patientId), eq(notifications.consultationId, consultation.id)))
      .orderBy(notifications.kind);
    expect(told).toEqual([{ kind: "payment_duplicate" }, { kind: "payment_received" }]);
  });

  it("treats a payment begun in an earlier window as late, even once the request is accepted again", async () => {
    const { consultation, txRef } = await startedPayment();
    await markPaidAtSandbox(txRef);
    // The window expired and another doctor accepted since.
    const otherDoctor = await createUser("doctor");
    const later = new Date(Date.now() + 1_000);
    await db
      .update(consultations)
      .set({ doctorId: otherDoctor, acceptedAt: later, paymentDeadlineAt: new Date(later.getTime() + 15 * 60_000) })
      .where(eq(consultations.id, consultation.id));
    const outcome = await confirmPayment(env, config(), ORIGIN, txRef, new Date(later.getTime() + 1_000));
    expect(outcome.kind).toBe("late");
    expect((await consultationNow(consultation.id)).status).toBe("accepted_awaiting_payment");
  });

  it("expires through the room's alarm even when it runs twice, after which a payment is late", async () => {
    const { consultation, txRef } = await startedPayment();
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultation.id));
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    await room.armPaymentDeadline(new Date(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect((await consultationNow(consultation.id)).status).toBe("pending");
    await markPaidAtSandbox(txRef);
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("late");
  });
});

describe("reading a webhook's event", () => {
  const body = (fields: Record<string, unknown>) => JSON.stringify(fields);

  it("reads a charge, with or without Chapa's event name", () => {
    expect(readWebhookEvent(body({ event: "charge.success", status: "success", tx_ref: "qoda-1", reference: "AP634JFwEbxd" }))).toEqual({
      kind: "charge",
      txRef: "qoda-1",
    });
    expect(readWebhookEvent(body({ tx_ref: "qoda-2", amount: "150.00" }))).toEqual({ kind: "charge", txRef: "qoda-2" });
  });

  it("reads a refund and a reversal, with our refund reference from the meta Chapa returns", () => {
    const refunded = {
      event: "charge.refunded",
      status: "refunded",
      tx_ref: "qoda-3",
      reference: "AP634JFwEbxd",
      meta: { reference: "refund-3" },
    };
    expect(readWebhookEvent(body(refunded))).toEqual({
      kind: "refund",
      txRef: "qoda-3",
      reference: "refund-3",
      status: "refunded",
      amountSantim: null,
    });
    // The amount given back, when the webhook says it.
    expect(readWebhookEvent(body({ ...refunded, amount: "75.50" }))).toMatchObject({ amountSantim: 7_550 });
    // A reversal by the bank was asked by nobody: no reference of ours.
    expect(
      readWebhookEvent(body({ event: "charge.reversed", status: "reversed", tx_ref: "qoda-4", reference: "AP1", meta: null })),
    ).toEqual({
      kind: "refund",
      txRef: "qoda-4",
      reference: null,
      status: "reversed",
      amountSantim: null,
    });
  });

  it("reads a payout's success and failure (cancelled is a failure), with the reason", () => {
    const payout = { type: "Payout", reference: "payout-1", chapa_reference: "2o10dfs332U", amount: "2000.00", bank_id: 855 };
    expect(readWebhookEvent(body({ ...payout, event: "payout.success", status: "success", failure_reason: "ignored" }))).toEqual({
      kind: "payout",
      reference: "payout-1",
      status: "success",
      failureReason: null,
    });
    expect(readWebhookEvent(body({ ...payout, event: "payout.failed", status: "failed", failure_reason: "Account closed" }))).toEqual({
      kind: "payout",
      reference: "payout-1",
      status: "failed",
      failureReason: "Account closed",
    });
    expect(readWebhookEvent(body({ ...payout, event: "payout.cancelled", status: "cancelled" }))).toMatchObject({
      status: "failed",
      failureReason: null,
    });
    expect(readWebhookEvent(body({ ...payout, event: "payout.failed", failure_reason: "x".repeat(2_000) }))).toMatchObject({
      failureReason: "x".repeat(500),
    });
  });

  it("reads nothing from garbage, events it does not know, or references that are not ours", () => {
    const garbage = ["", "tx_ref=qoda-1", "null", "42", '"qoda-1"', "[]", '[{"tx_ref":"qoda-1"}]', "{", '{"event":"charge.success"}'];
    for (const raw of garbage) expect(readWebhookEvent(raw), raw).toBeNull();
    const unknownEvents = ["charge.failed", "charge.failed/cancelled", "charge.dispute.create", "transfer.success", "CHARGE.SUCCESS", ""];
    for (const event of unknownEvents) expect(readWebhookEvent(body({ event, tx_ref: "qoda-1", reference: "r-1" })), event).toBeNull();
    expect(readWebhookEvent(body({ event: 7, tx_ref: "qoda-1" }))).toBeNull();
    // Bounded: a tx_ref or reference over 100 characters, or of the wrong type, is not ours.
    const long = "q".repeat(101);
    expect(readWebhookEvent(body({ tx_ref: "q".repeat(100) }))).toEqual({ kind: "charge", txRef: "q".repeat(100) });
    expect(readWebhookEvent(body({ tx_ref: long }))).toBeNull();
    expect(readWebhookEvent(body({ tx_ref: "" }))).toBeNull();
    expect(readWebhookEvent(body({ tx_ref: 12345 }))).toBeNull();
    expect(readWebhookEvent(body({ event: "charge.refunded", tx_ref: long, meta: { reference: "r" } }))).toBeNull();
    expect(readWebhookEvent(body({ event: "charge.refunded", tx_ref: "qoda-1", meta: { reference: long } }))).toBeNull();
    expect(readWebhookEvent(body({ event: "charge.refunded", tx_ref: "qoda-1", meta: { reference: 5 } }))).toBeNull();
    expect(readWebhookEvent(body({ event: "payout.success", reference: long }))).toBeNull();
    expect(readWebhookEvent(body({ event: "payout.success" }))).toBeNull();
  });
});

describe("the Chapa adapter", () => {
  const chapaConfig = () => ({
    ...config(),
    paymentProvider: "chapa" as const,
    CHAPA_API_URL,
    CHAPA_SECRET_KEY,
    CHAPA_WEBHOOK_SECRET,
  });

  it("initializes in Chapa's format and gives the hosted checkout URL", async () => {
    const chapa = chapaStandIn();
    const txRef = `qoda-${crypto.randomUUID()}`;
    const outcome = await chapaProvider(chapaConfig()).initialize(checkoutOf(txRef));
    expect(outcome).toEqual({ ok: true, checkoutUrl: `https://checkout.chapa.co/checkout/payment/${txRef}` });
    expect(chapa.authorizations[0]).toBe(`Bearer ${CHAPA_SECRET_KEY}`);
    expect(chapa.initializeBodies[0]).toMatchObject({
      amount: "150.00",
      currency: "ETB",
      email: "abebe@example.com",
      first_name: "Abebe",
      last_name: "Kebede",
      tx_ref: txRef,
      callback_url: `${ORIGIN}/payments/webhook`,
      return_url: `${ORIGIN}/payments/return/${txRef}`,
    });
    expect((chapa.initializeBodies[0]!.customization as { title: string }).title.length).toBeLessThanOrEqual(16);
    // Chapa's "used before" is told apart from a failure.
    expect(await chapaProvider(chapaConfig()).initialize(checkoutOf(txRef))).toEqual({ ok: false, kind: "reference_used" });
  });

  it("reuses the stored checkout URL when Chapa says the reference was used before", async () => {
    const chapa = chapaStandIn();
    const { consultation } = await acceptedRequest();
    const txRef = `qoda-${crypto.randomUUID()}`;
    const links = { callbackUrl: `${ORIGIN}/payments/webhook`, returnUrlOf: (ref: string) => `${ORIGIN}/payments/return/${ref}` };
    const provider = chapaProvider(chapaConfig());
    const first = await startPayment(db, provider, consultation, txRef, links, new Date());
    const second = await startPayment(db, provider, consultation, txRef, links, new Date());
    expect(first).toEqual({ ok: true, checkoutUrl: `https://checkout.chapa.co/checkout/payment/${txRef}` });
    expect(second).toEqual(first);
    expect(chapa.initializeBodies).toHaveLength(2);
    expect(await paymentsOf(consultation.id)).toHaveLength(1);
  });

  it("turns an answer not in Chapa's format into a failure, never a crash", async () => {
    const malformed = [
      new Response("<html>Bad gateway</html>", { status: 200 }),
      Response.json({ status: "success", data: { checkout_url: 42 } }),
      Response.json({ status: "success", data: { checkout_url: "http://insecure.example/pay" } }),
      Response.json(["not", "an", "object"]),
      Response.json({ status: "failed", message: { amount: ["The amount must be a number."] } }, { status: 400 }),
    ];
    const provider = chapaProvider(chapaConfig());
    for (const answer of malformed) {
      vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(answer.clone());
      expect(await provider.initialize(checkoutOf(`qoda-${crypto.randomUUID()}`))).toMatchObject({ ok: false, kind: "failed" });
      vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(answer.clone());
      expect(await provider.verify(`qoda-${crypto.randomUUID()}`)).toBeNull();
    }
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(malformed[4]!.clone());
    expect(await provider.initialize(checkoutOf("qoda-x"))).toEqual({ ok: false, kind: "failed", message: "The amount must be a number." });
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({ status: "success", data: { tx_ref: "qoda-y", status: "refunded?", amount: "abc", currency: 5, reference: 7 } }),
    );
    // A status it does not know is not taken for a wait (issue 16): it is unknown, with Chapa's word kept.
    expect(await provider.verify("qoda-y")).toEqual({
      txRef: "qoda-y",
      status: "unknown",
      providerStatus: "refunded?",
      amountSantim: Number.NaN,
      chargeSantim: 0,
      currency: "",
      reference: null,
    });
  });

  it("verifies with Chapa before confirming: success for the expected amount, currency and tx_ref only", async () => {
    const chapa = chapaStandIn();
    const cases = [
      { settle: "success", changes: { amount: "150" }, expected: "confirmed" },
      { settle: "success", changes: { amount: "15" }, expected: "mismatch" },
      { settle: "success", changes: { currency: "USD" }, expected: "mismatch" },
      { settle: "failed", changes: {}, expected: "not_paid" },
      { settle: "refunded", changes: {}, expected: "flagged" },
      { settle: "Reversed", changes: {}, expected: "flagged" },
      { settle: "something new", changes: {}, expected: "flagged" },
    ] as const;
    for (const { settle, changes, expected } of cases) {
      const { consultation } = await acceptedRequest();
      const txRef = `qoda-${crypto.randomUUID()}`;
      const links = { callbackUrl: `${ORIGIN}/payments/webhook`, returnUrlOf: (ref: string) => `${ORIGIN}/payments/return/${ref}` };
      await startPayment(db, chapaProvider(chapaConfig()), consultation, txRef, links, new Date());
      chapa.settle(txRef, settle, changes);
      const outcome = await confirmPayment(env, chapaConfig(), ORIGIN, txRef, new Date());
      expect(outcome.kind).toBe(expected);
      expect((await consultationNow(consultation.id)).status).toBe(expected === "confirmed" ? "in_progress" : "accepted_awaiting_payment");
    }
  });
});
