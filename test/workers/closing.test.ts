// Closing a consultation: the doctor's summary and ending, the patient's feedback, deleting the photos
// for real, and the notifications that tell each side what happened.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { afterEach, describe, expect, it, vi } from "vitest";

import { auditLog, chats, consultationFiles, consultations, notifications, patientFeedback } from "~/db/schema";

import type { ConsultationRoom } from "../../party/consultation";
import { emailsTo } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, sessionCookieFor } from "./fixtures";
import { PNG_BYTES } from "./photos";
import { openConsultationSocket } from "./sockets";

afterEach(() => vi.restoreAllMocks());

async function consultationInProgress() {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  const consultation = await createConsultation(patientId, "in_progress", { doctorId, acceptedAt: new Date(), startedAt: new Date() });
  await db.insert(chats).values({ consultationId: consultation.id, doctorId, patientId });
  return {
    consultation,
    patientId,
    doctorId,
    doctor: new Visitor(await sessionCookieFor(doctorId)),
    patient: new Visitor(await sessionCookieFor(patientId)),
  };
}

const current = async (id: string) => (await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!;
const SUMMARY = {
  observations: "Dry, scaly patches on both forearms.",
  diagnosis: "Atopic eczema",
  treatmentPlan: "Emollient twice daily; review in 2 weeks.",
};

describe("the doctor's summary", () => {
  it("is saved by the assigned doctor only, and kept as typed when refused", async () => {
    const { consultation, doctor } = await consultationInProgress();
    const saved = await doctor.post(`/doctor/consultation/${consultation.id}`, { intent: "save-summary", ...SUMMARY });
    expect(saved.status).toBe(302);
    expect(await current(consultation.id)).toMatchObject(SUMMARY);

    const stranger = new Visitor(await sessionCookieFor(await createUser("doctor")));
    const refused = await stranger.post(`/doctor/consultation/${consultation.id}`, { intent: "save-summary", diagnosis: "Forged" });
    expect(refused.status).toBe(404);
    expect((await current(consultation.id)).diagnosis).toBe(SUMMARY.diagnosis);

    const tooLong = await doctor.post(`/doctor/consultation/${consultation.id}`, {
      intent: "save-summary",
      ...SUMMARY,
      observations: "x".repeat(4_001),
    });
    expect(tooLong.status).toBe(400);
    expect((await current(consultation.id)).observations).toBe(SUMMARY.observations);
  });

  it("ends only with a diagnosis and a treatment plan, keeping what was typed", async () => {
    const { consultation, doctor } = await consultationInProgress();
    const refused = await doctor.post(`/doctor/consultation/${consultation.id}`, {
      intent: "end-consultation",
      observations: "Seen: redness",
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain("Consultation End Error");
    expect(page).toContain("Seen: redness");
    expect((await current(consultation.id)).status).toBe("in_progress");
  });

  it("ends once: completed with its summary, the chat closed, both told live, the patient notified and emailed", async () => {
    const { consultation, doctor, patientId } = await consultationInProgress();
    const patientSocket = await openConsultationSocket(consultation.id, await sessionCookieFor(patientId));
    await patientSocket.until((events) => events.some((event) => event.type === "status"));

    const [first, second] = await Promise.all([
      doctor.post(`/doctor/consultation/${consultation.id}`, { intent: "end-consultation", ...SUMMARY }),
      doctor.post(`/doctor/consultation/${consultation.id}`, { intent: "end-consultation", ...SUMMARY }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([302, 409]);
    expect([first, second].find((answer) => answer.status === 302)!.headers.get("Location")).toBe("/doctor/thank-you");
    const after = await current(consultation.id);
    expect(after).toMatchObject({ status: "completed", ...SUMMARY });
    expect(after.completedAt).not.toBeNull();
    expect((await db.query.chats.findFirst({ where: eq(chats.consultationId, consultation.id) }))!.status).toBe("closed");
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, consultation.id), eq(auditLog.action, "consultation.completed")));
    expect(audits).toHaveLength(1);
    await patientSocket.until((events) => events.some((event) => event.type === "status" && event.status === "completed"));
    patientSocket.close();

    const rows = await db.select().from(notifications).where(eq(notifications.userId, patientId));
    expect(rows.map((row) => row.kind)).toEqual(["summary_ready"]);
    const email = (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, patientId) }))!.email;
    await vi.waitFor(async () => expect((await emailsTo(email)).some((mail) => mail.subject.includes("summary is ready"))).toBe(true));

    // Completed: the summary can no longer change.
    const late = await doctor.post(`/doctor/consultation/${consultation.id}`, { intent: "save-summary", ...SUMMARY, diagnosis: "Changed" });
    expect(late.status).toBe(409);
    expect((await current(consultation.id)).diagnosis).toBe(SUMMARY.diagnosis);
  });

  it("cannot end a consultation still waiting for payment", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(),
      paymentDeadlineAt: new Date(Date.now() + 600_000),
    });
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const refused = await doctor.post(`/doctor/consultation/${consultation.id}`, { intent: "end-consultation", ...SUMMARY });
    expect(refused.status).toBe(409);
    expect((await current(consultation.id)).status).toBe("accepted_awaiting_payment");
  });
});

async function completedConsultation() {
  const setup = await consultationInProgress();
  await db
    .update(consultations)
    .set({ status: "completed", completedAt: new Date(), ...SUMMARY })
    .where(eq(consultations.id, setup.consultation.id));
  return setup;
}

describe("the patient's feedback", () => {
  it("is asked for first: a completed consultation without feedback opens the feedback page, with the summary", async () => {
    const { consultation, patient } = await completedConsultation();
    const page = await patient.get(`/patient/consultation/${consultation.id}`);
    expect(page.headers.get("Location")).toBe(`/patient/feedback/${consultation.id}`);
    const feedbackPage = await (await patient.get(`/patient/feedback/${consultation.id}`)).text();
    expect(feedbackPage).toContain(SUMMARY.diagnosis);
    expect(feedbackPage).toContain(SUMMARY.treatmentPlan);
  });

  it("needs a rating, and a method and a reachable value when contact is allowed; the form keeps what was typed", async () => {
    const { consultation, patient } = await completedConsultation();
    const cases: Array<Record<string, string>> = [
      { message: "Very helpful" },
      { rating: "6" },
      { rating: "5", allowContact: "on" },
      { rating: "5", allowContact: "on", contactMethod: "phone" },
      { rating: "5", allowContact: "on", contactMethod: "phone", contactValue: "not a phone" },
      { rating: "5", allowContact: "on", contactMethod: "fax", contactValue: "123" },
    ];
    for (const fields of cases) {
      const answer = await patient.post(`/patient/feedback/${consultation.id}`, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const page = await answer.text();
      expect(page).toContain("Missing info");
      if (fields.message) expect(page).toContain(fields.message);
    }
    expect(await db.select().from(patientFeedback).where(eq(patientFeedback.consultationId, consultation.id))).toHaveLength(0);
  });

  it("is given once, then thanks and home; the consultation page shows it", async () => {
    const { consultation, patient, doctorId } = await completedConsultation();
    const fields = { rating: "4", message: "Clear advice", allowContact: "on", contactMethod: "telegram", contactValue: "@abebe_k" };
    const [first, second] = await Promise.all([
      patient.post(`/patient/feedback/${consultation.id}`, fields),
      patient.post(`/patient/feedback/${consultation.id}`, fields),
    ]);
    expect([first, second].map((answer) => answer.headers.get("Location")).sort()).toEqual([
      `/patient/consultation/${consultation.id}`,
      "/patient/dashboard",
    ]);
    const rows = await db.select().from(patientFeedback).where(eq(patientFeedback.consultationId, consultation.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      rating: 4,
      feedbackMessage: "Clear advice",
      contactMethod: "telegram",
      contactValue: "@abebe_k",
      doctorId,
    });
    const page = await (await patient.get(`/patient/consultation/${consultation.id}`)).text();
    expect(page).toContain("Clear advice");
    expect((await patient.get(`/patient/feedback/${consultation.id}`)).headers.get("Location")).toBe(
      `/patient/consultation/${consultation.id}`,
    );
  });

  it("is refused for another patient's consultation and for one not completed", async () => {
    const { consultation } = await completedConsultation();
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.post(`/patient/feedback/${consultation.id}`, { rating: "1" })).status).toBe(404);
    const running = await consultationInProgress();
    const answer = await running.patient.post(`/patient/feedback/${running.consultation.id}`, { rating: "5" });
    expect(answer.headers.get("Location")).toBe(`/patient/consultation/${running.consultation.id}`);
    expect(await db.select().from(patientFeedback).where(eq(patientFeedback.consultationId, running.consultation.id))).toHaveLength(0);
  });
});

describe("deleting the photos", () => {
  async function withFiles(consultationId: string, patientId: string) {
    const ids: string[] = [];
    for (const kind of ["photo", "photo", "chat_image"] as const) {
      const id = crypto.randomUUID();
      const storageKey = `consultations/${consultationId}/${kind}/${id}`;
      await env.FILES.put(storageKey, PNG_BYTES);
      await db
        .insert(consultationFiles)
        .values({ id, consultationId, uploaderId: patientId, kind, storageKey, contentType: "image/png", sizeBytes: PNG_BYTES.byteLength });
      ids.push(id);
    }
    return ids;
  }
  const filesOf = (consultationId: string) =>
    db.select().from(consultationFiles).where(eq(consultationFiles.consultationId, consultationId));

  it("removes every object from R2, marks the rows, audits, and the links stop working", async () => {
    const { consultation, patient, patientId } = await completedConsultation();
    await db.insert(patientFeedback).values({ consultationId: consultation.id, patientId, rating: 5 });
    const ids = await withFiles(consultation.id, patientId);
    expect((await patient.get(`/files/${ids[0]}`)).status).toBe(200);
    // The form is in the page's HTML in place (it loads as its own script, but a page without script has it too).
    const page = await (await patient.get(`/patient/consultation/${consultation.id}`)).text();
    expect(page).toMatch(/<form[^>]*method="post"[^>]*>(?:(?!<\/form>)[\s\S])*value="delete-photos"/);
    expect(page).not.toMatch(/<div hidden id="S:/);

    const answer = await patient.post(`/patient/consultation/${consultation.id}`, { intent: "delete-photos" });
    expect(answer.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    for (const file of await filesOf(consultation.id)) {
      expect(file.deletedAt).not.toBeNull();
      expect(await env.FILES.head(file.storageKey)).toBeNull();
    }
    expect((await patient.get(`/files/${ids[0]}`)).status).toBe(404);
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, consultation.id), eq(auditLog.action, "files.deleted")));
    expect(audit).toHaveLength(1);
  });

  it("says so when storage fails, and marks nothing", async () => {
    const { consultation, patient, patientId } = await completedConsultation();
    await db.insert(patientFeedback).values({ consultationId: consultation.id, patientId, rating: 5 });
    await withFiles(consultation.id, patientId);
    vi.spyOn(env.FILES, "delete").mockRejectedValue(new Error("R2 unavailable"));
    const answer = await patient.post(`/patient/consultation/${consultation.id}`, { intent: "delete-photos" });
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain("could not be deleted");
    expect((await filesOf(consultation.id)).every((file) => file.deletedAt === null)).toBe(true);
  });

  it("is refused before the consultation ends, and for someone else's", async () => {
    const { consultation, patient, patientId } = await consultationInProgress();
    await withFiles(consultation.id, patientId);
    expect((await patient.post(`/patient/consultation/${consultation.id}`, { intent: "delete-photos" })).status).toBe(409);
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.post(`/patient/consultation/${consultation.id}`, { intent: "delete-photos" })).status).toBe(404);
    expect((await filesOf(consultation.id)).every((file) => file.deletedAt === null)).toBe(true);
  });
});

describe("notifications", () => {
  it("tell the doctor of a new message while they are away, once until read, and not while they are there", async () => {
    const { consultation, patientId, doctorId } = await consultationInProgress();
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    const unreadOf = (userId: string) =>
      db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.kind, "new_message"), eq(notifications.isRead, false)));
    await room.postMessage({ senderId: patientId, kind: "text", text: "Are you there?", fileId: null });
    await room.postMessage({ senderId: patientId, kind: "text", text: "It itches more today.", fileId: null });
    const rows = await unreadOf(doctorId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.link).toBe(`/doctor/consultation/${consultation.id}`);

    // With the doctor's page open, nothing is added.
    await db.update(notifications).set({ isRead: true }).where(eq(notifications.userId, doctorId));
    const doctorSocket = await openConsultationSocket(consultation.id, await sessionCookieFor(doctorId));
    await doctorSocket.until((events) => events.some((event) => event.type === "status"));
    await room.postMessage({ senderId: patientId, kind: "text", text: "Thank you!", fileId: null });
    expect(await unreadOf(doctorId)).toHaveLength(0);
    doctorSocket.close();
  });

  it("lists one's own, opens one (marked read, to its consultation), marks all read; another's id is not found", async () => {
    const { consultation, patientId, patient } = await consultationInProgress();
    const [row] = await db
      .insert(notifications)
      .values([
        { userId: patientId, kind: "payment_received", consultationId: consultation.id, link: `/patient/consultation/${consultation.id}` },
        { userId: patientId, kind: "summary_ready", consultationId: consultation.id, link: `/patient/consultation/${consultation.id}` },
      ])
      .returning();
    const list = await (await patient.get("/notifications")).text();
    expect(list).toContain("Payment received");
    expect(list).toContain("summary is ready");

    const opened = await patient.post("/notifications", { intent: "open", id: row!.id });
    expect(opened.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    expect((await db.query.notifications.findFirst({ where: eq(notifications.id, row!.id) }))!.isRead).toBe(true);

    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.post("/notifications", { intent: "open", id: row!.id })).status).toBe(404);
    expect((await db.query.notifications.findFirst({ where: eq(notifications.id, row!.id) }))!.userId).toBe(patientId);

    // One with 60 newer above it (beyond the list the page shows) still opens.
    const [old] = await db
      .insert(notifications)
      .values({
        userId: patientId,
        kind: "new_message",
        consultationId: consultation.id,
        link: `/patient/consultation/${consultation.id}`,
        createdAt: new Date(Date.now() - 86_400_000),
      })
      .returning();
    // D1 binds at most 100 values per statement: six statements of ten rows.
    const newer = { userId: patientId, kind: "new_message", consultationId: consultation.id, link: "/patient/dashboard" };
    for (let statement = 0; statement < 6; statement++) await db.insert(notifications).values(Array.from({ length: 10 }, () => newer));
    const openedOld = await patient.post("/notifications", { intent: "open", id: old!.id });
    expect(openedOld.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);

    await patient.post("/notifications", { intent: "mark-all-read" });
    const unread = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patientId), eq(notifications.isRead, false)));
    expect(unread).toHaveLength(0);
  });

  it("are paged, 20 at a time, newest first, with links to the previous and next pages in either language", async () => {
    const { consultation, patientId, patient } = await consultationInProgress();
    const link = `/patient/consultation/${consultation.id}`;
    const now = Date.now();
    // 45, a minute apart; the oldest five are the only unread ones (on the last page).
    const rows = Array.from({ length: 45 }, (_, age) => ({
      userId: patientId,
      kind: "new_message",
      consultationId: consultation.id,
      link,
      isRead: age < 40,
      createdAt: new Date(now - age * 60_000),
    }));
    for (let from = 0; from < rows.length; from += 10) await db.insert(notifications).values(rows.slice(from, from + 10));
    const times = (html: string) => [...html.matchAll(/<time dateTime="([^"]+)"/g)].map((match) => Date.parse(match[1]!));
    const minutesAgo = (html: string) => times(html).map((time) => Math.round((now - time) / 60_000));

    const first = await (await patient.get("/notifications")).text();
    expect(minutesAgo(first)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(first).toContain('href="/notifications?page=2"');
    expect(first).toContain(">Next page<");
    expect(first).not.toContain(">Previous page<");
    // Unread ones wait on a later page: "mark all as read" is offered anyway.
    expect(first).toContain('value="mark-all-read"');

    const second = await (await patient.get("/notifications?page=2")).text();
    expect(minutesAgo(second)).toEqual(Array.from({ length: 20 }, (_, index) => index + 20));
    expect(second).toContain(">Previous page<");
    const last = await (await patient.get("/notifications?page=3")).text();
    expect(minutesAgo(last)).toEqual([40, 41, 42, 43, 44]);
    expect(last).not.toContain(">Next page<");
    // A page number that is not one is the first page.
    expect(minutesAgo(await (await patient.get("/notifications?page=x")).text())[0]).toBe(0);

    await patient.get("/notifications?lng=am");
    const amharic = await (await patient.get("/notifications?page=2")).text();
    expect(amharic).toContain(">ያለፈው ገጽ<");
    expect(amharic).toContain(">የሚቀጥለው ገጽ<");
  });
});
