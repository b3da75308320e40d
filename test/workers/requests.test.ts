import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";

import { auditLog, chats, consultationFiles, consultations } from "~/db/schema";

import type { ConsultationRoom } from "../../party/consultation";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, INTAKE_FORM, ORIGIN, signedIn } from "./fixtures";
import { EXE_BYTES, JPEG_BYTES, largeJpeg, photoFile, PNG_BYTES, SVG_BYTES } from "./photos";

async function patientVisitor() {
  const patient = await signedIn("patient");
  return { ...patient, visitor: new Visitor(patient.cookie) };
}

async function uploadPhotos(visitor: Visitor, files: File[], draftId?: string) {
  const form = new FormData();
  if (draftId) form.append("draftId", draftId);
  for (const file of files) form.append("photo", file);
  const response = await visitor.postMultipart("/patient/new-consultation/photos", form);
  return {
    status: response.status,
    body: (await response.json()) as { draftId?: string; photoIds?: string[]; errors?: string[]; error?: string },
  };
}

async function filesOf(consultationId: string) {
  return db.select().from(consultationFiles).where(eq(consultationFiles.consultationId, consultationId));
}

describe("the new-consultation wizard", () => {
  it("asks an anonymous visitor to sign in first and brings them back", async () => {
    const response = await new Visitor().get("/patient/new-consultation");
    expect(response.headers.get("Location")).toBe("/login?redirect=%2Fpatient%2Fnew-consultation");
    const login = await new Visitor().get("/login?redirect=%2Fpatient%2Fnew-consultation");
    expect(await login.text()).toContain("Please log in to submit a consultation request.");
  });

  it("refuses a request without a chief complaint, in the spec's words, and creates nothing", async () => {
    const { visitor, userId } = await patientVisitor();
    const response = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: "   ",
      knownIllnesses: "Asthma",
      priority: "high",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Missing Information");
    expect(html).toContain("Please Tell us what&#x27;s going on with your skin.");
    expect(html).toContain("Asthma");
    expect(await db.$count(consultations, eq(consultations.patientId, userId))).toBe(0);
  });

  it("sends a request without photos straight to the doctors, titled by its complaint cut to 100 characters", async () => {
    const { visitor, userId } = await patientVisitor();
    const complaint = `${"Itchy red patches on my arms. ".repeat(5)}They started after I changed soap.`;
    const response = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: complaint,
      knownIllnesses: "None",
      additionalComments: "Worse at night",
      priority: "urgent",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/patient\/new-consultation\?step=3&id=/);
    const [created] = await db.select().from(consultations).where(eq(consultations.patientId, userId));
    expect(created).toMatchObject({
      status: "pending",
      priority: "urgent",
      mainConcern: complaint.trim(),
      medicalHistory: "None",
      additionalComments: "Worse at night",
    });
    expect(created!.title).toBe(complaint.slice(0, 100));
    const { html } = await visitor.follow(response);
    expect(html).toContain("Consultation Submitted!");
    expect(html).toContain("Step 3 of 3");
  });

  it("keeps a request with photos as a draft until the final submit finds every photo stored", async () => {
    const { visitor, userId } = await patientVisitor();
    const upload = await uploadPhotos(visitor, [photoFile(PNG_BYTES, "rash.png")]);
    expect(upload.status).toBe(200);
    const draftId = upload.body.draftId!;
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, draftId) }))?.status).toBe("awaiting_assets");
    const second = await uploadPhotos(visitor, [photoFile(JPEG_BYTES, "close-up.jpg", "image/jpeg")], draftId);
    expect(second.body.draftId).toBe(draftId);
    const stored = await filesOf(draftId);
    expect(stored.map((file) => file.contentType).sort()).toEqual(["image/jpeg", "image/png"]);
    expect(await env.FILES.head(stored[0]!.storageKey)).not.toBeNull();

    // A photo whose object went missing keeps the request a draft, with a clear message.
    await env.FILES.delete(stored[0]!.storageKey);
    const refused = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId,
      ...INTAKE_FORM,
      chiefComplaint: "Rash",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Some photos did not finish uploading.");
    await db.delete(consultationFiles).where(eq(consultationFiles.id, stored[0]!.id));

    const submitted = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId,
      ...INTAKE_FORM,
      chiefComplaint: "Rash on my neck",
    });
    expect(submitted.headers.get("Location")).toBe(`/patient/new-consultation?step=3&id=${draftId}`);
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, draftId) })).toMatchObject({
      status: "pending",
      title: "Rash on my neck",
      patientId: userId,
    });
  });

  it("checks the doctor code", async () => {
    const { visitor } = await patientVisitor();
    const refused = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: "Rash",
      doctorCode: "NOPE99",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("No active doctor has this code.");
  });

  it("works without JavaScript: photos by a multipart form post, removal, then the details", async () => {
    const { visitor } = await patientVisitor();
    const form = new FormData();
    form.append("intent", "upload-photos");
    form.append("photo", photoFile(PNG_BYTES, "a.png"));
    form.append("photo", photoFile(PNG_BYTES, "b.png"));
    const uploaded = await visitor.postMultipart("/patient/new-consultation", form);
    const location = uploaded.headers.get("Location")!;
    const draftId = new URL(location, ORIGIN).searchParams.get("draft")!;
    expect((await filesOf(draftId)).length).toBe(2);
    const step1 = await (await visitor.get(location)).text();
    expect(step1).toContain("2 photos");
    const photoId = (await filesOf(draftId))[0]!.id;
    await visitor.post("/patient/new-consultation", { intent: "remove-photo", draftId, photoId });
    expect((await filesOf(draftId)).length).toBe(1);
  });
});

describe("bad photos", () => {
  it("get clear errors and store nothing", async () => {
    const { visitor } = await patientVisitor();
    const cases: Array<[File, string]> = [
      [largeJpeg(6 * 1024 * 1024), "big.jpg is larger than 5 MB."],
      [photoFile(EXE_BYTES, "holiday.jpg", "image/jpeg"), "holiday.jpg is not a JPG, PNG or WebP photo."],
      [photoFile(SVG_BYTES, "drawing.svg", "image/svg+xml"), "drawing.svg is not a JPG, PNG or WebP photo."],
      [photoFile(new Uint8Array(), "empty.png"), "empty.png is empty."],
    ];
    const { body: first } = await uploadPhotos(visitor, [photoFile(PNG_BYTES, "ok.png")]);
    const draftId = first.draftId!;
    for (const [file, message] of cases) {
      const { status, body } = await uploadPhotos(visitor, [file], draftId);
      expect(status, message).toBe(422);
      expect(body.errors).toEqual([message]);
    }
    expect((await filesOf(draftId)).length).toBe(1);
    const listed = await env.FILES.list({ prefix: `consultations/${draftId}/` });
    expect(listed.objects).toHaveLength(1);
  });

  it("leave no draft behind when every photo is refused, and a broken body gets a 400", async () => {
    const { visitor, userId } = await patientVisitor();
    const { status, body } = await uploadPhotos(visitor, [photoFile(EXE_BYTES, "virus.jpg", "image/jpeg")]);
    expect(status).toBe(422);
    expect(body.draftId).toBeNull();
    expect(await db.$count(consultations, eq(consultations.patientId, userId))).toBe(0);
    const broken = await visitor.fetch("/patient/new-consultation", {
      method: "POST",
      body: "garbage",
      headers: { Origin: ORIGIN, "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(broken.status).toBe(400);
    const huge = await visitor.fetch("/patient/new-consultation", {
      method: "POST",
      body: "x",
      headers: { Origin: ORIGIN, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(60 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
  });

  it("allow at most 10 photos per request", async () => {
    const { visitor } = await patientVisitor();
    const { body } = await uploadPhotos(
      visitor,
      Array.from({ length: 10 }, (_, index) => photoFile(PNG_BYTES, `p${index}.png`)),
    );
    expect(body.photoIds).toHaveLength(10);
    const eleventh = await uploadPhotos(visitor, [photoFile(PNG_BYTES, "p10.png")], body.draftId);
    expect(eleventh.status).toBe(422);
    expect(eleventh.body.errors).toEqual(["A request can have at most 10 photos."]);
    expect((await filesOf(body.draftId!)).length).toBe(10);
  });

  it("cannot be added to another patient's draft", async () => {
    const owner = await patientVisitor();
    const { body } = await uploadPhotos(owner.visitor, [photoFile(PNG_BYTES, "mine.png")]);
    const intruder = await patientVisitor();
    const attempt = await uploadPhotos(intruder.visitor, [photoFile(PNG_BYTES, "theirs.png")], body.draftId);
    expect(attempt.status).toBe(404);
    expect((await filesOf(body.draftId!)).length).toBe(1);
    const anonymous = await new Visitor().postMultipart("/patient/new-consultation/photos", new FormData());
    expect(anonymous.headers.get("Location")).toBe("/login?redirect=%2Fpatient%2Fnew-consultation%2Fphotos");
  });
});

describe("accepting", () => {
  it("lets exactly one of 20 doctors win, in the database and in the answers", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending");
    const doctors = await Promise.all(Array.from({ length: 20 }, () => signedIn("doctor")));
    const answers = await Promise.all(
      doctors.map(async (doctor) => {
        const response = await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
        return { doctorId: doctor.userId, status: response.status, html: await response.text() };
      }),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((answer) => answer.status !== 200)) {
      expect(loser.status).toBe(409);
      expect(loser.html).toContain("This consultation has already been accepted by another doctor.");
    }
    const stored = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(stored).toMatchObject({ status: "accepted_awaiting_payment", doctorId: winners[0]!.doctorId });
    expect(stored!.paymentDeadlineAt!.getTime() - stored!.acceptedAt!.getTime()).toBe(15 * 60_000);
    expect(await db.query.chats.findFirst({ where: eq(chats.consultationId, consultation.id) })).toMatchObject({
      doctorId: winners[0]!.doctorId,
      status: "active",
    });
    expect(await db.$count(auditLog, and(eq(auditLog.action, "consultation.accepted"), eq(auditLog.targetId, consultation.id)))).toBe(1);
  });

  it("arms the consultation room's payment alarm and tells the patient's page", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const socketResponse = await SELF.fetch(`${ORIGIN}/parties/consultation-room/${consultation.id}`, {
      headers: { Upgrade: "websocket", Cookie: patient.cookie },
    });
    const socket = socketResponse.webSocket!;
    const messages: string[] = [];
    const accepted = new Promise<void>((resolve) =>
      socket.addEventListener("message", (event) => {
        messages.push(String(event.data));
        if (String(event.data).includes("accepted_awaiting_payment")) resolve();
      }),
    );
    socket.accept();
    const doctor = await signedIn("doctor");
    await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
    await accepted;
    expect(JSON.parse(messages[0]!)).toMatchObject({ type: "status", status: "pending" });
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    const deadline = await room.paymentDeadline();
    const stored = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(deadline?.getTime()).toBe(stored!.paymentDeadlineAt!.getTime());
    socket.close(1000, "done");
  });

  it("is only for doctors, and only while pending; decline cancels", async () => {
    const patient = await signedIn("patient");
    const consultation = await createConsultation(patient.userId, "pending");
    const asPatient = await new Visitor(patient.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
    expect(asPatient.headers.get("Location")).toBe("/access-denied");
    const doctor = await signedIn("doctor");
    const declined = await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, {
      intent: "decline",
      reason: "in_person",
    });
    expect(declined.headers.get("Location")).toBe("/doctor/consultations");
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) })).toMatchObject({
      status: "cancelled",
      declineReason: "in_person",
      declineNote: null,
    });
    const late = await new Visitor(doctor.cookie).post(`/doctor/consultation/${consultation.id}`, { intent: "accept" });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("This request was declined by a doctor, so it can no longer be accepted.");
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) }))?.status).toBe("cancelled");
  });

  it("asks why before declining, keeps what was chosen, and changes nothing until the form is right", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending");
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    const path = `/doctor/consultation/${consultation.id}`;
    const noReason = await doctor.post(path, { intent: "decline", note: "Please see someone in person" });
    expect(noReason.status).toBe(400);
    const noReasonPage = await noReason.text();
    expect(noReasonPage).toContain("Please choose why you are declining.");
    expect(noReasonPage).toContain("Please see someone in person");
    const otherWithoutWords = await doctor.post(path, { intent: "decline", reason: "other", note: "   " });
    expect(otherWithoutWords.status).toBe(400);
    const otherPage = await otherWithoutWords.text();
    expect(otherPage).toContain(`checked="" value="other"`);
    expect(otherPage).toContain("Please tell the patient why, in a few words.");
    const forgedReason = await doctor.post(path, { intent: "decline", reason: "because" });
    expect(forgedReason.status).toBe(400);
    const tooLong = await doctor.post(path, { intent: "decline", reason: "other", note: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) }))?.status).toBe("pending");

    const inAmharic = await doctor.post(`${path}?lng=am`, { intent: "decline" });
    expect(await inAmharic.text()).toContain("ውድቅ የሚያደርጉበትን ምክንያት");

    const declined = await doctor.post(path, { intent: "decline", reason: "other", note: "I am away this week.\u0007" });
    expect(declined.status).toBe(302);
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) })).toMatchObject({
      status: "cancelled",
      declineReason: "other",
      declineNote: "I am away this week.",
    });
  });
});

describe("the accept link", () => {
  it("shows the request, accepts on POST, and sends the same doctor straight to it afterwards", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending", { title: "Dry skin on hands" });
    const doctor = await signedIn("doctor");
    const visitor = new Visitor(doctor.cookie);
    const page = await visitor.get(`/consultation/${consultation.id}/accept`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Dry skin on hands");
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) }))?.status).toBe("pending");
    const accepted = await visitor.post(`/consultation/${consultation.id}/accept`, {});
    expect(accepted.headers.get("Location")).toBe(`/doctor/consultation/${consultation.id}`);
    expect((await visitor.get(`/consultation/${consultation.id}/accept`)).headers.get("Location")).toBe(
      `/doctor/consultation/${consultation.id}`,
    );
    const other = await signedIn("doctor");
    const taken = await new Visitor(other.cookie).get(`/consultation/${consultation.id}/accept`);
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(html).toContain("Oops!");
    expect(html).toContain("This consultation has already been accepted by another doctor.");
    expect(html).toContain("Go to Dashboard");
  });

  it("says a declined or withdrawn request is no longer waiting, not that another doctor took it", async () => {
    const patientId = await createUser("patient");
    const declined = await createConsultation(patientId, "cancelled", { declineReason: "not_skin", cancelledAt: new Date() });
    const withdrawn = await createConsultation(patientId, "cancelled", { cancelledAt: new Date() });
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    for (const path of [`/consultation/${declined.id}/accept`, `/doctor/consultation/${declined.id}`]) {
      const page = await doctor.get(path);
      expect(page.status).toBe(409);
      const html = await page.text();
      expect(html).toContain("This request was declined by a doctor, so it can no longer be accepted.");
      expect(html).not.toContain("Itchy rash");
    }
    const accepting = await doctor.post(`/consultation/${withdrawn.id}/accept`, {});
    expect(accepting.status).toBe(409);
    expect(await accepting.text()).toContain("The patient withdrew this request, so it can no longer be accepted.");
    const inAmharic = await doctor.get(`/doctor/consultation/${withdrawn.id}?lng=am`);
    expect(await inAmharic.text()).toContain("ታካሚው ይህን ጥያቄ ስላነሱት ከእንግዲህ ሊቀበሉት አይችሉም።");
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, withdrawn.id) }))?.status).toBe("cancelled");
  });

  it("tells a patient they may not accept", async () => {
    const patient = await signedIn("patient");
    const response = await new Visitor(patient.cookie).get(`/consultation/${crypto.randomUUID()}/accept`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("You do not have permission to accept consultations.");
  });
});

describe("privacy between patients", () => {
  it("patient B cannot read patient A's consultation, photos or room", async () => {
    const a = await patientVisitor();
    const { body } = await uploadPhotos(a.visitor, [photoFile(PNG_BYTES, "private.png")]);
    await a.visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId: body.draftId!,
      ...INTAKE_FORM,
      chiefComplaint: "Private rash",
    });
    const photoId = body.photoIds![0]!;
    expect((await a.visitor.get(`/files/${photoId}`)).status).toBe(200);

    const b = await patientVisitor();
    expect((await b.visitor.get(`/patient/consultation/${body.draftId}`)).status).toBe(404);
    expect((await b.visitor.get(`/files/${photoId}`)).status).toBe(404);
    expect((await b.visitor.get(`/patient/payment/${body.draftId}`)).status).toBe(404);
    const room = await SELF.fetch(`${ORIGIN}/parties/consultation-room/${body.draftId}`, {
      headers: { Upgrade: "websocket", Cookie: b.cookie },
    });
    expect(room.status).toBe(403);
  });

  it("serves photos privately to doctors deciding, audits each look, and shuts out other doctors once accepted", async () => {
    const a = await patientVisitor();
    const { body } = await uploadPhotos(a.visitor, [photoFile(PNG_BYTES, "private.png")]);
    await a.visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId: body.draftId!,
      ...INTAKE_FORM,
      chiefComplaint: "Rash",
    });
    const photoId = body.photoIds![0]!;
    const doctor = await signedIn("doctor");
    const seen = await new Visitor(doctor.cookie).get(`/files/${photoId}`);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("Content-Type")).toBe("image/png");
    expect(seen.headers.get("Cache-Control")).toBe("private, no-store");
    expect(seen.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(seen.headers.get("Content-Disposition")).toMatch(/^inline; filename="photo-[0-9a-f]{8}\.png"$/);
    expect(new Uint8Array(await seen.arrayBuffer())).toEqual(PNG_BYTES);
    expect(
      await db.$count(
        auditLog,
        and(eq(auditLog.action, "file.viewed"), eq(auditLog.actorId, doctor.userId), eq(auditLog.targetId, photoId)),
      ),
    ).toBe(1);

    await new Visitor(doctor.cookie).post(`/doctor/consultation/${body.draftId}`, { intent: "accept" });
    const other = await signedIn("doctor");
    expect((await new Visitor(other.cookie).get(`/files/${photoId}`)).status).toBe(404);
    const admin = await signedIn("admin");
    expect((await new Visitor(admin.cookie).get(`/files/${photoId}`)).status).toBe(200);
  });
});

describe("in Amharic", () => {
  it("the wizard's messages and the doctor's page speak Amharic", async () => {
    const { visitor } = await patientVisitor();
    await visitor.get("/?lng=am");
    const refused = await visitor.post("/patient/new-consultation?step=2", { intent: "submit", ...INTAKE_FORM, chiefComplaint: "" });
    const html = await refused.text();
    expect(html).toContain("የጎደለ መረጃ");
    expect(html).toContain("እባክዎ በቆዳዎ ላይ ምን እየሆነ እንደሆነ ይንገሩን።");
    expect(html).toContain("ደረጃ 2 ከ3");

    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending", { priority: "urgent" });
    const doctor = await signedIn("doctor");
    const doctorVisitor = new Visitor(doctor.cookie);
    await doctorVisitor.get("/?lng=am");
    const page = await (await doctorVisitor.get(`/doctor/consultation/${consultation.id}`)).text();
    expect(page).toContain("አስቸኳይ");
    expect(page).toContain("ዋና ችግር");
    expect(page).toContain("ይቀበሉ");
  });
});

describe("the payment page", () => {
  it("closes a window that is already past on the first look, and says so", async () => {
    const patient = await signedIn("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patient.userId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(Date.now() - 20 * 60_000),
      paymentDeadlineAt: new Date(Date.now() - 60_000),
    });
    const visitor = new Visitor(patient.cookie);
    const { html, url } = await visitor.follow(await visitor.get(`/patient/payment/${consultation.id}`));
    expect(new URL(url).pathname).toBe("/patient/dashboard");
    expect(html).toContain("Payment Time Expired");
    expect(html).toContain("Consultation returned to the queue.");
    expect((await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) }))?.status).toBe("pending");
  });

  it("shows the amount and the countdown while the window is open", async () => {
    const patient = await signedIn("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patient.userId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(),
      paymentDeadlineAt: new Date(Date.now() + 15 * 60_000),
    });
    const html = await (await new Visitor(patient.cookie).get(`/patient/payment/${consultation.id}`)).text();
    expect(html).toContain("Amount: 150 ETB");
    expect(html).toMatch(/data-testid="payment-countdown"[^>]*>1[45]:\d\d</);
  });
});
