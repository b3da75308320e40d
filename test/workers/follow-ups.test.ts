// Follow-ups with the same doctor (issue 17, item 7): a patient asks the doctor of a completed
// consultation again; the request waits for that doctor alone for the promised time, then for everyone
// (live, and on reload); the doctor sees the earlier consultation beside it. And the doctor's "send me
// new photos in N days", reminded once by the scheduled job.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";

import { consultations, mailOutbox, notifications, patientFeedback, profiles } from "~/db/schema";
import type { LobbyEvent } from "~/realtime/protocol";
import { runHousekeeping } from "~/server/jobs.server";

import type { DoctorsLobby } from "../../party/lobby";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, INTAKE_FORM, sessionCookieFor } from "./fixtures";
import { openLobbySocket } from "./sockets";

const DAY_MS = 24 * 60 * 60_000;

const current = async (id: string) => (await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!;
const emailOf = async (userId: string) => (await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, userId) }))!.email;

/** A patient's consultation with a doctor, completed `daysAgo` days ago and rated (so its page opens), with both people. */
async function completedConsultation({ daysAgo = 1, doctorId = undefined as string | undefined } = {}) {
  const patientId = await createUser("patient");
  const doctor = doctorId ?? (await createUser("doctor"));
  const completedAt = new Date(Date.now() - daysAgo * DAY_MS);
  const consultation = await createConsultation(patientId, "completed", {
    doctorId: doctor,
    title: "Scaly patches on my knees",
    mainConcern: "Scaly patches on my knees",
    acceptedAt: completedAt,
    startedAt: completedAt,
    completedAt,
    observations: "Red plaques with silvery scale on both knees.",
    diagnosis: "Plaque psoriasis",
    treatmentPlan: "Clobetasol ointment once daily for two weeks.",
  });
  await db.insert(patientFeedback).values({ consultationId: consultation.id, patientId, doctorId: doctor, rating: 5 });
  return {
    consultation,
    patientId,
    doctorId: doctor,
    patient: new Visitor(await sessionCookieFor(patientId)),
    doctor: new Visitor(await sessionCookieFor(doctor)),
  };
}

/** The patient sends a follow-up of `consultationId` (no photos), as the wizard's details step posts it. */
function sendFollowUp(patient: Visitor, consultationId: string, complaint = "Still itchy after two weeks") {
  return patient.post(`/patient/new-consultation?step=2&followUp=${consultationId}`, {
    intent: "submit",
    chiefComplaint: complaint,
    ...INTAKE_FORM,
    submissionKey: crypto.randomUUID(),
  });
}

async function followUpOf(consultationId: string) {
  return db.query.consultations.findFirst({ where: eq(consultations.followUpOfId, consultationId) });
}

const added = (id: string) => (events: LobbyEvent[]) => events.filter((event) => event.type === "request_added" && event.request.id === id);

/** A lobby socket of `doctorId`, once it has its first queue. */
async function lobbyOf(doctorId: string) {
  const socket = await openLobbySocket(await sessionCookieFor(doctorId));
  await socket.until((events) => events.some((event) => event.type === "queue"));
  return socket;
}

/** A plain request from a new patient that every doctor receives: once a socket has it, it had everything sent before it. */
async function marker() {
  const visitor = new Visitor(await sessionCookieFor(await createUser("patient")));
  const title = `Marker ${crypto.randomUUID()}`;
  expect((await visitor.post("/patient/new-consultation?step=2", { intent: "submit", chiefComplaint: title, ...INTAKE_FORM })).status).toBe(
    302,
  );
  return (events: LobbyEvent[]) => events.some((event) => event.type === "request_added" && event.request.title === title);
}

const lobbyRoom = () => getServerByName(env.DoctorsLobby, "main") as Promise<DurableObjectStub<DoctorsLobby>>;

describe("asking the same doctor again", () => {
  it("is offered on the completed consultation, leads into the wizard, and goes to that doctor first, marked, with the earlier consultation beside it", async () => {
    const { consultation, patient, doctor, doctorId } = await completedConsultation();
    const other = await createUser("doctor");
    const page = await (await patient.get(`/patient/consultation/${consultation.id}`)).text();
    expect(page).toContain(`href="/patient/new-consultation?followUp=${consultation.id}"`);
    expect(page).toContain("Ask Dr. Test again");

    const wizard = await patient.get(`/patient/new-consultation?followUp=${consultation.id}`);
    expect(wizard.status).toBe(200);
    const wizardPage = await wizard.text();
    expect(wizardPage).toContain("Follow-up with Dr. Test");
    expect(wizardPage).toContain(`?step=2&amp;followUp=${consultation.id}`);

    const own = await lobbyOf(doctorId);
    const another = await lobbyOf(other);
    const sent = await sendFollowUp(patient, consultation.id);
    expect(sent.status).toBe(302);
    const followUp = (await followUpOf(consultation.id))!;
    expect(followUp).toMatchObject({ status: "pending", reservedForDoctorId: doctorId });
    expect(followUp.reservedUntil!.getTime() - followUp.createdAt.getTime()).toBe(10 * 60_000);

    await own.until((events) => added(followUp.id)(events).length > 0);
    const event = added(followUp.id)(own.events)[0];
    expect(event?.type === "request_added" && event.request.followUpOf).toBe(consultation.id);
    const seen = await marker();
    await another.until(seen);
    expect(added(followUp.id)(another.events)).toEqual([]);
    expect(another.events.find((item) => item.type === "queue")).toBeDefined();

    // On reload too: its doctor's list has it, marked; the other doctor's has not.
    const ownDashboard = await (await doctor.get("/doctor/dashboard")).text();
    expect(ownDashboard).toContain(`Follow-up of your consultation ${consultation.id.slice(0, 8)}`);
    const otherDashboard = await (await new Visitor(await sessionCookieFor(other)).get("/doctor/dashboard")).text();
    expect(otherDashboard).not.toContain(`/doctor/consultation/${followUp.id}`);

    // The doctor reads the earlier consultation beside the new request.
    const request = await (await doctor.get(`/doctor/consultation/${followUp.id}`)).text();
    expect(request).toContain("Earlier consultation");
    expect(request).toContain("Diagnosis: Plaque psoriasis");
    expect(request).toContain("Main concern: Scaly patches on my knees");
    expect(request).toContain(`href="/doctor/consultation/${consultation.id}"`);
    expect((await doctor.post(`/doctor/consultation/${followUp.id}`, { intent: "accept" })).status).toBe(200);
    expect(await current(followUp.id)).toMatchObject({ status: "accepted_awaiting_payment", doctorId });
    own.close();
    another.close();
  });

  it("refuses another doctor while it waits for its own: no page, no accept, no decline, no accept link", async () => {
    const { consultation, patient } = await completedConsultation();
    expect((await sendFollowUp(patient, consultation.id)).status).toBe(302);
    const followUp = (await followUpOf(consultation.id))!;
    const other = new Visitor(await sessionCookieFor(await createUser("doctor")));

    const accepted = await other.post(`/doctor/consultation/${followUp.id}`, { intent: "accept" });
    expect(accepted.status).toBe(403);
    expect(await accepted.text()).toContain("This follow-up waits a few minutes for the patient");
    const declined = await other.post(`/doctor/consultation/${followUp.id}`, { intent: "decline", reason: "not_skin" });
    expect(declined.status).toBe(403);
    const viewed = await other.get(`/doctor/consultation/${followUp.id}`);
    expect(viewed.status).toBe(409);
    const viewedPage = await viewed.text();
    expect(viewedPage).toContain("This follow-up waits a few minutes for the patient");
    expect(viewedPage).not.toContain("Still itchy after two weeks");
    const link = await other.get(`/consultation/${followUp.id}/accept`);
    expect(link.status).toBe(403);
    expect(await current(followUp.id)).toMatchObject({ status: "pending", doctorId: null });
  });

  it("goes to every doctor when its time runs out: live, through the lobby's alarm (once), and on reload", async () => {
    const { consultation, patient, doctorId } = await completedConsultation();
    const otherId = await createUser("doctor");
    const own = await lobbyOf(doctorId);
    const another = await lobbyOf(otherId);
    expect((await sendFollowUp(patient, consultation.id)).status).toBe(302);
    const followUp = (await followUpOf(consultation.id))!;
    await own.until((events) => added(followUp.id)(events).length > 0);

    // The promised minutes pass.
    await db
      .update(consultations)
      .set({ reservedUntil: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, followUp.id));
    const lobby = await lobbyRoom();
    expect(await runDurableObjectAlarm(lobby)).toBe(true);
    await another.until((events) => added(followUp.id)(events).length > 0);
    const event = added(followUp.id)(another.events)[0];
    // The other doctor is not told whose earlier consultation it follows.
    expect(event?.type === "request_added" && event.request.followUpOf).toBeUndefined();
    // Its own doctor had it already: nothing new for them, and the scheduled job releases nothing twice.
    expect(await lobby.releaseEndedReservations()).toBe(0);
    const seen = await marker();
    await own.until(seen);
    expect(added(followUp.id)(own.events)).toHaveLength(1);
    expect(added(followUp.id)(another.events)).toHaveLength(1);

    const other = new Visitor(await sessionCookieFor(otherId));
    expect(await (await other.get("/doctor/dashboard")).text()).toContain(`/doctor/consultation/${followUp.id}`);
    const request = await other.get(`/doctor/consultation/${followUp.id}`);
    expect(request.status).toBe(200);
    // Before accepting, another doctor learns only that it follows an earlier consultation.
    const requestPage = await request.text();
    expect(requestPage).toContain("follows up a consultation of");
    expect(requestPage).not.toContain("Plaque psoriasis");
    expect((await other.post(`/doctor/consultation/${followUp.id}`, { intent: "accept" })).status).toBe(200);
    expect(await current(followUp.id)).toMatchObject({ status: "accepted_awaiting_payment", doctorId: otherId });
    own.close();
    another.close();
  });

  it("is open for 30 days after the end, and while the doctor still takes consultations", async () => {
    const late = await completedConsultation({ daysAgo: 31 });
    expect(await (await late.patient.get(`/patient/consultation/${late.consultation.id}`)).text()).not.toContain("followUp=");
    const refusedPage = await late.patient.get(`/patient/new-consultation?followUp=${late.consultation.id}`);
    expect(refusedPage.status).toBe(409);
    const refusedText = await refusedPage.text();
    expect(refusedText).toContain("A follow-up can be asked within 30 days of the consultation.");
    expect(refusedText).not.toContain('name="chiefComplaint"');
    const refused = await sendFollowUp(late.patient, late.consultation.id);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("within 30 days");
    expect(await followUpOf(late.consultation.id)).toBeUndefined();

    const inTime = await completedConsultation({ daysAgo: 29 });
    expect((await inTime.patient.get(`/patient/new-consultation?followUp=${inTime.consultation.id}`)).status).toBe(200);

    const gone = await completedConsultation();
    await env.DB.prepare("UPDATE doctors SET status = 'inactive' WHERE user_id = ?").bind(gone.doctorId).run();
    const goneAnswer = await sendFollowUp(gone.patient, gone.consultation.id);
    expect(goneAnswer.status).toBe(409);
    expect(await goneAnswer.text()).toContain("no longer taking consultations");

    const { patientId, patient } = await completedConsultation();
    const ongoing = await createConsultation(patientId, "in_progress", { doctorId: await createUser("doctor"), startedAt: new Date() });
    expect((await sendFollowUp(patient, ongoing.id)).status).toBe(409);
    expect(await followUpOf(ongoing.id)).toBeUndefined();
  });

  it("refuses another patient's consultation (and anything that is not one) as not found, in the reader's language", async () => {
    const { consultation } = await completedConsultation();
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    const page = await stranger.get(`/patient/new-consultation?followUp=${consultation.id}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("We could not find this consultation among yours.");
    const inAmharic = await stranger.get(`/patient/new-consultation?followUp=${consultation.id}&lng=am`);
    expect(await inAmharic.text()).toContain("ይህን ምክክር ከምክክሮችዎ መካከል ማግኘት አልቻልንም።");
    expect((await sendFollowUp(stranger, consultation.id)).status).toBe(404);
    expect((await sendFollowUp(stranger, "not-a-consultation")).status).toBe(404);
    expect(await followUpOf(consultation.id)).toBeUndefined();
  });
});

describe("new photos in N days", () => {
  async function endedWith(newPhotosInDays: string) {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "in_progress", { doctorId, acceptedAt: new Date(), startedAt: new Date() });
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const answer = await doctor.post(`/doctor/consultation/${consultation.id}`, {
      intent: "end-consultation",
      diagnosis: "Plaque psoriasis",
      treatmentPlan: "Clobetasol ointment once daily.",
      newPhotosInDays,
    });
    return { answer, consultation, patientId, doctor };
  }

  it("is asked in the summary, 1 to 90 days, and due that many days after the end", async () => {
    for (const wrong of ["0", "91", "two"]) {
      const { answer, consultation } = await endedWith(wrong);
      expect(answer.status, wrong).toBe(400);
      expect(await answer.text()).toContain("Enter a whole number of days from 1 to 90");
      expect((await current(consultation.id)).status).toBe("in_progress");
    }
    const { answer, consultation } = await endedWith("14");
    expect(answer.status).toBe(302);
    const ended = await current(consultation.id);
    expect(ended.newPhotosDueAt!.getTime() - ended.completedAt!.getTime()).toBe(14 * DAY_MS);
    const { consultation: without } = await endedWith("");
    expect((await current(without.id)).newPhotosDueAt).toBeNull();
  });

  it("reminds the patient once when due, in their language, with a link to ask the same doctor again, however often the job runs", async () => {
    const { consultation, patientId } = await completedConsultation();
    await db.update(profiles).set({ preferredLanguage: "am" }).where(eq(profiles.userId, patientId));
    await db
      .update(consultations)
      .set({ newPhotosDueAt: new Date(Date.now() + DAY_MS) })
      .where(eq(consultations.id, consultation.id));
    await runHousekeeping(env, new Date());
    expect((await current(consultation.id)).newPhotosRemindedAt).toBeNull();

    await db
      .update(consultations)
      .set({ newPhotosDueAt: new Date(Date.now() - 60_000) })
      .where(eq(consultations.id, consultation.id));
    // The scheduled job twice at the very same moment, then once more.
    const now = new Date();
    const reports = await Promise.all([runHousekeeping(env, now), runHousekeeping(env, now)]);
    await runHousekeeping(env, new Date());
    expect(reports.map((report) => report.newPhotosReminded).sort()).toEqual([0, 1]);
    expect((await current(consultation.id)).newPhotosRemindedAt).toEqual(now);

    const notices = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patientId), eq(notifications.kind, "new_photos_due")));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.link).toBe(`/patient/new-consultation?followUp=${consultation.id}`);
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toEmail, await emailOf(patientId)));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("አዲስ ፎቶዎችን የሚልኩበት ቀን ደርሷል");
    expect(mails[0]!.textBody).toContain("ዶ/ር Test");
    expect(mails[0]!.textBody).toContain(`https://qoda.test/patient/new-consultation?followUp=${consultation.id}`);
  });
});
