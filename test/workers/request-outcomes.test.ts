// What happens to a request after it is sent, as the patient and the doctors meet it: declined with a
// reason (live, on reload, by email), withdrawn, accepted (by email), the waiting cap, and the wizard
// keeping what was typed.
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, consultations, profiles, users } from "~/db/schema";
import { MAX_WAITING_REQUESTS_PER_PATIENT } from "~/domain/constants";

import { lastEmailTo } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, INTAKE_FORM, signedIn } from "./fixtures";
import { openConsultationSocket, openLobbySocket } from "./sockets";

async function emailOf(userId: string) {
  return (await db.query.users.findFirst({ columns: { email: true }, where: eq(users.id, userId) }))!.email;
}

async function statusOf(id: string) {
  return (await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!;
}

const decline = (doctor: Visitor, id: string, reason: string, note = "") =>
  doctor.post(`/doctor/consultation/${id}`, { intent: "decline", reason, note });

describe("a declined request", () => {
  it("tells the patient's open page at once, with the reason and the doctor's words", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const socket = await openConsultationSocket(consultation.id, patient.cookie);
    await socket.until((events) => events.length > 0);
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    await decline(doctor, consultation.id, "other", "Please see a doctor about your fever first.");
    await socket.until((events) => events.some((event) => event.status === "cancelled"));
    expect(socket.events.at(-1)).toEqual({
      type: "status",
      consultationId: consultation.id,
      status: "cancelled",
      reason: "declined",
      decline: { reason: "other", note: "Please see a doctor about your fever first." },
    });
    socket.close();
    // A page that connects later hears the same, reason included.
    const later = await openConsultationSocket(consultation.id, patient.cookie);
    await later.until((events) => events.length > 0);
    expect(later.events[0]).toMatchObject({ status: "cancelled", reason: "declined", decline: { reason: "other" } });
    later.close();
  });

  it("says so on the patient's page and dashboard, in English and Amharic, with a way to start again", async () => {
    const patient = await signedIn("patient");
    const unclear = await createConsultation(patient.userId, "pending", { title: "Spots on my back" });
    const inPerson = await createConsultation(patient.userId, "pending", { title: "A deep wound" });
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    expect((await decline(doctor, unclear.id, "photos_unclear")).status).toBe(302);
    expect((await decline(doctor, inPerson.id, "in_person")).status).toBe(302);

    const visitor = new Visitor(patient.cookie);
    const page = await (await visitor.get(`/patient/consultation/${unclear.id}`)).text();
    expect(page).toContain("A doctor declined this request");
    expect(page).toContain("The photos are not clear enough.");
    expect(page).toContain(`href="/patient/new-consultation?from=${unclear.id}"`);
    expect(page).toContain('data-status="declined"');
    const inPersonPage = await (await visitor.get(`/patient/consultation/${inPerson.id}`)).text();
    expect(inPersonPage).toContain("Your skin needs to be seen in person.");
    expect(inPersonPage).toContain('href="/patient/new-consultation"');

    const dashboard = await (await visitor.get("/patient/dashboard")).text();
    expect(dashboard).toContain("Declined requests");
    expect(dashboard).toContain("Spots on my back");
    expect(dashboard).toContain(`/patient/new-consultation?from=${unclear.id}`);

    const inAmharic = await (await visitor.get(`/patient/consultation/${unclear.id}?lng=am`)).text();
    expect(inAmharic).toContain("ይህ ጥያቄ በሐኪም ውድቅ ተደርጓል");
    expect(inAmharic).toContain("ፎቶዎቹ በቂ ግልጽ አይደሉም።");
  });

  it("emails the patient in their language, with the reason and a link to start again", async () => {
    const patientId = await createUser("patient");
    await db.update(profiles).set({ preferredLanguage: "am", firstName: "Selam" }).where(eq(profiles.userId, patientId));
    const consultation = await createConsultation(patientId, "pending", { title: "Dry patches" });
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    await decline(doctor, consultation.id, "photos_unclear");
    const mail = await lastEmailTo(await emailOf(patientId));
    expect(mail?.subject).toContain("«ቆዳ»");
    expect(mail?.textBody).toContain("Selam");
    expect(mail?.textBody).toContain("ፎቶዎቹ በቂ ግልጽ አይደሉም።");
    expect(mail?.link?.pathname).toBe("/patient/new-consultation");
    expect(mail?.link?.searchParams.get("from")).toBe(consultation.id);
  });

  it("starts again from a request declined for its photos: a new draft with the same words, only for its patient", async () => {
    const patient = await signedIn("patient");
    const declined = await createConsultation(patient.userId, "cancelled", {
      title: "Rash after new soap",
      mainConcern: "Rash after new soap",
      medicalHistory: "Asthma",
      priority: "high",
      declineReason: "photos_unclear",
      cancelledAt: new Date(),
    });
    const visitor = new Visitor(patient.cookie);
    const started = await visitor.get(`/patient/new-consultation?from=${declined.id}`);
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get("Location")!, "https://qoda.test");
    const draftId = location.searchParams.get("draft")!;
    expect(await statusOf(draftId)).toMatchObject({ status: "awaiting_assets", mainConcern: "Rash after new soap", priority: "high" });
    expect(await (await visitor.get(`${location.pathname}${location.search}`)).text()).toContain("We kept what you wrote last time.");
    const details = await (await visitor.get(`/patient/new-consultation?step=2&draft=${draftId}`)).text();
    expect(details).toContain("Rash after new soap</textarea>");
    expect(details).toContain("Asthma</textarea>");

    // Someone else's declined request copies nothing.
    const stranger = new Visitor((await signedIn("patient")).cookie);
    const refused = await stranger.get(`/patient/new-consultation?from=${declined.id}`);
    expect(refused.headers.get("Location")).toBe("/patient/new-consultation?step=1");
  });
});

describe("withdrawing a request", () => {
  it("cancels it, tells every doctor's list at once, and says so to the patient", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const lobby = await openLobbySocket();
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    const visitor = new Visitor(patient.cookie);
    const withdrawn = await visitor.post(`/patient/consultation/${consultation.id}`, { intent: "withdraw" });
    expect(withdrawn.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    await lobby.until((events) => events.some((event) => event.type === "request_removed" && event.id === consultation.id));
    lobby.close();
    expect(await statusOf(consultation.id)).toMatchObject({ status: "cancelled", declineReason: null });
    expect(await db.$count(auditLog, and(eq(auditLog.action, "consultation.withdrawn"), eq(auditLog.targetId, consultation.id)))).toBe(1);
    const page = await (await visitor.get(`/patient/consultation/${consultation.id}`)).text();
    expect(page).toContain("You withdrew this request");
    expect(page).toContain("Your request was withdrawn");

    const again = await visitor.post(`/patient/consultation/${consultation.id}`, { intent: "withdraw" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This request is no longer waiting.");
  });

  it("is only for its own patient, and only while it waits", async () => {
    const owner = await signedIn("patient");
    const waiting = await createConsultation(owner.userId, "pending");
    const stranger = new Visitor((await signedIn("patient")).cookie);
    expect((await stranger.post(`/patient/consultation/${waiting.id}`, { intent: "withdraw" })).status).toBe(404);
    const doctor = await signedIn("doctor");
    expect((await new Visitor(doctor.cookie).post(`/patient/consultation/${waiting.id}`, { intent: "withdraw" })).status).toBe(302);
    expect((await statusOf(waiting.id)).status).toBe("pending");

    const accepted = await createConsultation(owner.userId, "accepted_awaiting_payment", { doctorId: doctor.userId });
    const late = await new Visitor(owner.cookie).post(`/patient/consultation/${accepted.id}`, { intent: "withdraw" });
    expect(late.status).toBe(409);
    expect((await statusOf(accepted.id)).status).toBe("accepted_awaiting_payment");
    const forged = await new Visitor(owner.cookie).post(`/patient/consultation/${waiting.id}`, { intent: "accept" });
    expect(forged.status).toBe(400);
    expect((await statusOf(waiting.id)).status).toBe("pending");
  });

  it("happens once when sent twice at the same time", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const visitor = new Visitor(patient.cookie);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => visitor.post(`/patient/consultation/${consultation.id}`, { intent: "withdraw" })),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(4);
    expect(await db.$count(auditLog, and(eq(auditLog.action, "consultation.withdrawn"), eq(auditLog.targetId, consultation.id)))).toBe(1);
  });
});

describe("an accepted request", () => {
  it("emails the patient the payment link and the deadline, Addis Ababa time", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending", { title: "Itchy scalp" });
    const doctor = await signedIn("doctor");
    await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
    const mail = await lastEmailTo(await emailOf(patientId));
    const stored = await statusOf(consultation.id);
    const deadline = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Africa/Addis_Ababa",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(stored.paymentDeadlineAt!);
    expect(mail?.textBody).toContain("Itchy scalp");
    expect(mail?.textBody).toContain("150");
    expect(mail?.textBody).toContain(deadline);
    expect(mail?.link?.pathname).toBe(`/patient/payment/${consultation.id}`);
  });

  it("gives an Amharic reader the deadline on a 24-hour clock, as their phone shows it, never an Ethiopian-clock reading", async () => {
    const patientId = await createUser("patient");
    await db.update(profiles).set({ preferredLanguage: "am" }).where(eq(profiles.userId, patientId));
    const consultation = await createConsultation(patientId, "pending", { title: "ሽፍታ" });
    const doctor = await signedIn("doctor");
    await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
    const mail = await lastEmailTo(await emailOf(patientId));
    const stored = await statusOf(consultation.id);
    const parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Africa/Addis_Ababa",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(stored.paymentDeadlineAt!);
    expect(mail?.textBody).toContain(`በስልክዎ ላይ በሚታየው ሰዓት እስከ ${parts}`);
    expect(mail?.textBody).not.toMatch(/ከሰዓት|ጥዋት|ጠዋት|ምሽት/);
    expect(mail?.textBody).toContain("ወደ ወረፋው ይመለሳል");
    // The link's label ends with the Ethiopic colon, not a Latin one.
    expect(mail?.textBody).toMatch(/አሁን ይክፈሉ፦ https:\/\//);
  });

  it("shows on the dashboard with the time left to pay, and the payment page says what happens at 0:00", async () => {
    const patient = await signedIn("patient");
    const doctorId = await createUser("doctor");
    const deadline = new Date(Date.now() + 12 * 60_000);
    const consultation = await createConsultation(patient.userId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(),
      paymentDeadlineAt: deadline,
    });
    const visitor = new Visitor(patient.cookie);
    const dashboard = await (await visitor.get("/patient/dashboard")).text();
    expect(dashboard).toMatch(/role="timer"[^>]*>1[12]:\d\d</);
    const payment = await (await visitor.get(`/patient/payment/${consultation.id}`)).text();
    expect(payment).toContain("If the time runs out, the doctor is freed for other patients");
    expect(payment).toContain(`href="/patient/consultation/${consultation.id}"`);
  });
});

describe("the waiting cap", () => {
  it(`lets a patient have at most ${MAX_WAITING_REQUESTS_PER_PATIENT} requests waiting, with a clear message past it, even all at once`, async () => {
    const patient = await signedIn("patient");
    for (let index = 0; index < MAX_WAITING_REQUESTS_PER_PATIENT - 1; index++) await createConsultation(patient.userId, "pending");
    const visitor = new Visitor(patient.cookie);
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        visitor.post("/patient/new-consultation?step=2", {
          intent: "submit",
          ...INTAKE_FORM,
          chiefComplaint: `Request ${index}`,
          submissionKey: crypto.randomUUID(),
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(refused).toHaveLength(3);
    const page = await refused[0]!.text();
    expect(page).toContain("You already have 3 requests waiting");
    expect(page).toMatch(/Request \d<\/textarea>/);
    const [waiting] = await db
      .select({ total: count() })
      .from(consultations)
      .where(and(eq(consultations.patientId, patient.userId), eq(consultations.status, "pending")));
    expect(waiting!.total).toBe(MAX_WAITING_REQUESTS_PER_PATIENT);
    // Only the request that was created has an audit entry: a refused creation writes nothing.
    const audited = and(eq(auditLog.action, "consultation.submitted"), eq(auditLog.actorId, patient.userId));
    expect(await db.$count(auditLog, audited)).toBe(1);
    const inAmharic = await visitor.post("/patient/new-consultation?step=2&lng=am", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: "ሽፍታ",
    });
    expect(inAmharic.status).toBe(400);
    expect(await inAmharic.text()).toContain("3 ጥያቄዎች");
  });
});

describe("the wizard", () => {
  it("keeps what was typed when the patient goes back to the photos, and shows it again", async () => {
    const patient = await signedIn("patient");
    const visitor = new Visitor(patient.cookie);
    const back = await visitor.post("/patient/new-consultation?step=2", {
      intent: "back",
      ...INTAKE_FORM,
      chiefComplaint: "Red rings on my arm",
      knownIllnesses: "Diabetes",
      doctorCode: "abc123",
      priority: "urgent",
    });
    expect(back.status).toBe(302);
    const draftId = new URL(back.headers.get("Location")!, "https://qoda.test").searchParams.get("draft")!;
    expect(await statusOf(draftId)).toMatchObject({
      status: "awaiting_assets",
      patientId: patient.userId,
      mainConcern: "Red rings on my arm",
    });
    const details = await (await visitor.get(`/patient/new-consultation?step=2&draft=${draftId}`)).text();
    expect(details).toContain("Red rings on my arm</textarea>");
    expect(details).toContain("Diabetes</textarea>");
    expect(details).toContain('value="ABC123"');
    expect(details).toMatch(/checked="" value="urgent"/);

    // Back again with changes: the same draft keeps the new words.
    await visitor.post("/patient/new-consultation?step=2", { intent: "back", draftId, chiefComplaint: "Red rings, now itchy" });
    expect((await statusOf(draftId)).mainConcern).toBe("Red rings, now itchy");
    // Someone else's draft is never written.
    const stranger = new Visitor((await signedIn("patient")).cookie);
    await stranger.post("/patient/new-consultation?step=2", { intent: "back", draftId, chiefComplaint: "Not yours" });
    expect((await statusOf(draftId)).mainConcern).toBe("Red rings, now itchy");
  });

  it("without JavaScript, 'Check again' on the thank-you step reloads the same request", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const page = await (await new Visitor(patient.cookie).get(`/patient/new-consultation?step=3&id=${consultation.id}`)).text();
    expect(page).toContain(`href="/patient/new-consultation?step=3&amp;id=${consultation.id}"`);
  });
});
