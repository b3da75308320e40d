// A consultation's timeline in the real D1 and rooms: read from where each step is stored, for its
// patient alone, in both languages, from the request to the rating through each way it can go (confirmed,
// disputed and refunded, released by the schedule, declined, withdrawn, cancelled after payment); and each
// step reaches the patient's room socket, so their pages read it again live.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { consultations, disputes, payments, refunds } from "~/db/schema";
import { formatMoment } from "~/domain/dates";
import type { WordedTimeline } from "~/domain/views/worded-timeline";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { runHousekeeping } from "~/server/jobs.server";
import { resolveDispute } from "~/server/money/disputes.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { attemptPaidAtProvider, config, endedAgo, ESCROW_RELEASE_AFTER_MS, paidConsultation, signedWebhook } from "./money-fixtures";
import { openChatSocket } from "./sockets";

afterEach(async () => {
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "webhooks", "on_time");
});

const SUMMARY = {
  observations: "Dry, scaly patches on both forearms.",
  diagnosis: "Atopic eczema",
  treatmentPlan: "Emollient twice daily; review in 2 weeks.",
};

async function timelineOf(visitor: Visitor, consultationId: string, language = "en") {
  const answer = await visitor.get(`/patient/consultation/${consultationId}/timeline?lng=${language}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("Cache-Control")).toContain("no-store");
  return (await answer.json()) as WordedTimeline;
}

/** The timeline as "words | state" lines, easy to read in a failure. */
const stepsOf = (timeline: WordedTimeline) => timeline.steps.map((step) => `${step.label} | ${step.state}`);

/** A patient with a room socket on their consultation, to hear what their pages hear. */
async function listening(consultationId: string, patientCookie: string) {
  const socket = await openChatSocket(consultationId, patientCookie);
  await socket.until((events) => events.some((event) => event.type === "status"));
  return {
    socket,
    /** Resolves once the room has said the consultation moved to `status`. */
    heardStatus: (status: string) => socket.until((events) => events.some((event) => event.type === "status" && event.status === status)),
    /** Resolves once the room has given `count` timeline news in all. */
    heardNews: (count: number) => socket.until((events) => events.filter((event) => event.type === "timeline").length >= count),
  };
}

/**
 * A consultation paid `paidAgoMs` ago and ended by its doctor `endedAgoMs` ago (the fixtures pay it now;
 * its earlier steps are moved back so that they come in their real order).
 */
async function paidAndEnded(paidAgoMs: number, endedAgoMs: number) {
  const paid = await paidConsultation();
  const at = new Date(Date.now() - paidAgoMs);
  await db
    .update(consultations)
    .set({ createdAt: new Date(at.getTime() - 5 * 60_000), acceptedAt: at, startedAt: at })
    .where(eq(consultations.id, paid.consultationId));
  await db.update(payments).set({ paidAt: at }).where(eq(payments.txRef, paid.txRef));
  await endedAgo(paid.consultationId, endedAgoMs);
  return paid;
}

async function people() {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  const patientCookie = await sessionCookieFor(patientId);
  return {
    patientId,
    doctorId,
    patientCookie,
    patient: new Visitor(patientCookie),
    doctor: new Visitor(await sessionCookieFor(doctorId)),
  };
}

// A request made before it was accepted: with both stamped "now", a millisecond ticking between them
// would make the request the latest event.
const aMinuteAgo = () => new Date(Date.now() - 60_000);

describe("a consultation's timeline", () => {
  it("follows a request to its rating and confirmation, each step with its time, heard live by the patient's room", async () => {
    const { patientId, patientCookie, patient, doctor } = await people();
    const { id, createdAt } = await createConsultation(patientId, "pending", { createdAt: new Date(Date.now() - 5 * 60_000) });
    const room = await listening(id, patientCookie);

    const waiting = await timelineOf(patient, id);
    expect(stepsOf(waiting)).toEqual([
      "Request sent | current",
      "A doctor accepts it | next",
      "Payment | next",
      "Chat with the doctor | next",
      "The doctor's summary | next",
      "You confirm it is complete, or open a dispute | next",
      "Payment released to the doctor, or refunded to you | next",
      "Your rating | next",
    ]);
    expect(waiting).toMatchObject({ consultationId: id, status: "pending", goesOn: true, toCome: "Still to come" });
    // Addis Ababa's time, 24-hour, through the dates module; the machine-readable moment beside it.
    expect(waiting.steps[0]).toMatchObject({ time: formatMoment(createdAt, "en"), dateTime: createdAt.toISOString() });
    expect(waiting.steps.slice(1).every((step) => step.time === null && step.dateTime === null)).toBe(true);

    // The page's own action answers the accept button's fetcher.
    expect((await doctor.post(`/doctor/consultation/${id}`, { intent: "accept" })).status).toBe(200);
    await room.heardStatus("accepted_awaiting_payment");
    expect(stepsOf(await timelineOf(patient, id)).slice(0, 3)).toEqual([
      "Request sent | done",
      "Accepted by Dr. Test | current",
      "Payment | next",
    ]);

    // Accepted a minute ago, as the money fixtures have it: their payment attempt is dated 30 seconds back.
    await db
      .update(consultations)
      .set({ acceptedAt: new Date(Date.now() - 60_000) })
      .where(eq(consultations.id, id));
    const txRef = await attemptPaidAtProvider(id, patientId);
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("confirmed");
    await room.heardStatus("in_progress");
    const paid = await timelineOf(patient, id);
    expect(stepsOf(paid).slice(1, 5)).toEqual([
      "Accepted by Dr. Test | done",
      "Paid | done",
      "Chat with the doctor began | current",
      "The doctor's summary | next",
    ]);
    const payment = (await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) }))!;
    expect(paid.steps[2]!.dateTime).toBe(payment.paidAt!.toISOString());

    expect((await doctor.post(`/doctor/consultation/${id}`, { intent: "end-consultation", ...SUMMARY })).status).toBe(302);
    await room.heardStatus("completed");
    expect(stepsOf(await timelineOf(patient, id)).slice(3)).toEqual([
      "Chat with the doctor began | done",
      "The doctor's summary is ready | current",
      "You confirm it is complete, or open a dispute | next",
      "Payment released to the doctor, or refunded to you | next",
      "Your rating | next",
    ]);

    expect((await patient.post(`/patient/feedback/${id}`, { rating: "4" })).status).toBe(302);
    await room.heardNews(1);
    expect(stepsOf(await timelineOf(patient, id)).slice(4)).toEqual([
      "The doctor's summary is ready | done",
      "You rated it 4 of 5 stars | current",
      "You confirm it is complete, or open a dispute | next",
      "Payment released to the doctor, or refunded to you | next",
    ]);

    expect((await patient.post(`/patient/consultation/${id}`, { intent: "confirm-complete" })).status).toBe(302);
    await room.heardNews(2);
    const over = await timelineOf(patient, id);
    expect(stepsOf(over).slice(5)).toEqual([
      "You rated it 4 of 5 stars | done",
      "You confirmed the consultation is complete | done",
      "Payment released to Dr. Test | current",
    ]);
    // Nothing more can happen to it: its pages stop listening.
    expect(over.goesOn).toBe(false);

    // In Amharic: the words, and the Ethiopian date on a 24-hour clock.
    const amharic = await timelineOf(patient, id, "am");
    expect(amharic.steps.map((step) => step.label)).toEqual([
      "ጥያቄው ተልኳል",
      "ዶ/ር Test ተቀብለውታል",
      "ተከፍሏል",
      "ከሐኪሙ ጋር ውይይት ተጀምሯል",
      "የሐኪሙ ማጠቃለያ ዝግጁ ነው",
      "ከ5 ኮከብ 4 ሰጥተዋል",
      "ምክክሩ መጠናቀቁን አረጋግጠዋል",
      "ክፍያው ለዶ/ር Test ተለቋል",
    ]);
    expect(amharic.steps[0]!.time).toBe(formatMoment(createdAt, "am"));
    expect(amharic.steps[0]!.time).toMatch(/ዓ\.ም\. \d\d:\d\d$/);
    room.socket.close();
  });

  it("follows a dispute, the doctor's answer and an admin's part refund, settled by the provider's webhook, each heard live", async () => {
    // The provider makes the refund, but its answer is lost and its webhook comes later: on its way till then.
    await setSandboxSwitch(env, "refunds", "timeout_after_taking");
    await setSandboxSwitch(env, "webhooks", "late");
    const { consultationId, patientId, doctorId } = await paidAndEnded(2 * 60 * 60_000, 60 * 60_000);
    const patientCookie = await sessionCookieFor(patientId);
    const patient = new Visitor(patientCookie);
    const room = await listening(consultationId, patientCookie);

    const opened = await patient.post(`/patient/consultation/${consultationId}`, {
      intent: "open-dispute",
      reason: "not_helpful",
      words: "The advice did not match my skin.",
    });
    expect(opened.status).toBe(302);
    await room.heardNews(1);
    expect(stepsOf(await timelineOf(patient, consultationId)).slice(4)).toEqual([
      "The doctor's summary is ready | done",
      "You opened a dispute | current",
      "Payment released to the doctor, or refunded to you | next",
      "Your rating | next",
    ]);

    // The doctor's answer moves no step, but the patient's open page shows it: the room says so.
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const answered = await doctor.post(`/doctor/consultation/${consultationId}`, {
      intent: "answer-dispute",
      answer: "The cream needs two weeks; please keep using it.",
    });
    expect(answered.status).toBe(302);
    await room.heardNews(2);

    const dispute = (await db.query.disputes.findFirst({ where: eq(disputes.consultationId, consultationId) }))!;
    expect(dispute.doctorAnswer).toBe("The cream needs two weeks; please keep using it.");
    const decision = { resolution: "refund_part" as const, refundPartSantim: 5_000, note: "Half-right." };
    const resolved = await resolveDispute(env, { db, config: config() }, await createUser("admin"), dispute.id, decision, new Date());
    expect(resolved).toEqual({ ok: true });
    await room.heardNews(3);
    expect(stepsOf(await timelineOf(patient, consultationId)).slice(5)).toEqual([
      "You opened a dispute | done",
      "Payment released to Dr. Test | done",
      "Refund of 50 ETB on its way to you | current",
      "Refund to you | next",
      "Your rating | next",
    ]);

    const refund = (await db.query.refunds.findFirst({ where: eq(refunds.consultationId, consultationId) }))!;
    const txRef = (await db.query.payments.findFirst({ where: eq(payments.id, refund.paymentId) }))!.txRef;
    const settled = await signedWebhook({
      event: "charge.refunded",
      tx_ref: txRef,
      status: "refunded",
      amount: "50.00",
      currency: "ETB",
      meta: { reference: refund.reference },
    });
    expect(settled.status).toBe(200);
    await room.heardNews(4);
    expect(stepsOf(await timelineOf(patient, consultationId)).slice(6)).toEqual([
      "Payment released to Dr. Test | done",
      "50 ETB refunded to you | current",
      "Your rating | next",
    ]);
    room.socket.close();
  });

  it("shows the payment released by the schedule, with no word asked of the patient any more, heard live", async () => {
    const { consultationId, patientId } = await paidAndEnded(ESCROW_RELEASE_AFTER_MS + 60 * 60_000, ESCROW_RELEASE_AFTER_MS + 60_000);
    const patientCookie = await sessionCookieFor(patientId);
    const room = await listening(consultationId, patientCookie);
    await runHousekeeping(env, new Date());
    await room.heardNews(1);
    expect(stepsOf(await timelineOf(new Visitor(patientCookie), consultationId)).slice(4)).toEqual([
      "The doctor's summary is ready | done",
      "Payment released to Dr. Test | current",
      "Your rating | next",
    ]);
    room.socket.close();
  });

  it("ends a declined, a withdrawn and a paid-then-cancelled consultation there", async () => {
    const { patientId, patient, doctor } = await people();
    const declined = await createConsultation(patientId, "pending");
    await doctor.post(`/doctor/consultation/${declined.id}`, { intent: "decline", reason: "not_skin" });
    const declinedTimeline = await timelineOf(patient, declined.id);
    expect(stepsOf(declinedTimeline)).toEqual(["Request sent | done", "Declined by the doctor | current"]);
    expect(declinedTimeline.goesOn).toBe(false);

    const withdrawn = await createConsultation(patientId, "pending");
    expect((await patient.post(`/patient/consultation/${withdrawn.id}`, { intent: "withdraw" })).status).toBe(302);
    expect(stepsOf(await timelineOf(patient, withdrawn.id))).toEqual(["Request sent | done", "You withdrew the request | current"]);

    await setSandboxSwitch(env, "refunds", "timeout_after_taking");
    await setSandboxSwitch(env, "webhooks", "late");
    const paid = await paidConsultation();
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    expect((await admin.post(`/admin/consultations/${paid.consultationId}`, { reason: "The doctor was deactivated" })).status).toBe(302);
    const cancelled = await admin.post(`/admin/consultations/${paid.consultationId}`, { intent: "cancel-paid", note: "Doctor gone." });
    expect(cancelled.status).toBe(302);
    const cancelledTimeline = await timelineOf(new Visitor(await sessionCookieFor(paid.patientId)), paid.consultationId);
    expect(stepsOf(cancelledTimeline).slice(3)).toEqual([
      "Chat with the doctor began | done",
      "Cancelled by Qoda | done",
      "Refund of 150 ETB on its way to you | current",
      "Refund to you | next",
    ]);
    expect(cancelledTimeline.goesOn).toBe(true);
  });

  it("is its patient's alone: another patient, its doctor and a stranger get nothing; a draft has none", async () => {
    const { patientId, doctorId, patient, doctor } = await people();
    const { id } = await createConsultation(patientId, "in_progress", {
      doctorId,
      createdAt: aMinuteAgo(),
      acceptedAt: new Date(),
      startedAt: new Date(),
    });
    const path = `/patient/consultation/${id}/timeline`;
    expect((await new Visitor(await sessionCookieFor(await createUser("patient"))).get(path)).status).toBe(404);
    expect((await doctor.get(path)).headers.get("Location")).toBe("/access-denied");
    expect((await new Visitor().get(path)).headers.get("Location")).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    const draft = await createConsultation(patientId, "awaiting_assets", { title: "", mainConcern: "" });
    expect((await patient.get(`/patient/consultation/${draft.id}/timeline`)).status).toBe(404);
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!.status).toBe("in_progress");
  });

  it("is drawn by the consultation's page and, compact, by the dashboard on a reload", async () => {
    const { patientId, doctorId, patient } = await people();
    await createConsultation(patientId, "completed", {
      doctorId,
      createdAt: aMinuteAgo(),
      acceptedAt: new Date(),
      startedAt: new Date(),
      completedAt: new Date(),
    });
    const { id } = await createConsultation(patientId, "in_progress", {
      doctorId,
      createdAt: aMinuteAgo(),
      acceptedAt: new Date(),
      startedAt: new Date(),
    });
    await createConsultation(patientId, "pending");
    const page = await (await patient.get(`/patient/consultation/${id}`)).text();
    expect(page).toContain(">Timeline</h2>");
    expect(page).toMatch(/<li class="step step-primary" aria-current="step" data-state="current">.*Chat with the doctor began/);
    const amharicPage = await (await patient.get(`/patient/consultation/${id}?lng=am`)).text();
    expect(amharicPage).toContain(">የምክክሩ ሂደት</h2>");
    // The dashboard follows the consultation under way, not the newer one still waiting.
    const dashboard = await (await patient.get("/patient/dashboard?lng=en")).text();
    expect(dashboard).toContain("Your consultation&#x27;s timeline");
    expect(dashboard).toContain(`href="/patient/consultation/${id}"`);
    expect(dashboard).toMatch(/aria-current="step" data-state="current">.*Chat with the doctor began/);
  });
});
