// The doctor sets what patients read of them before paying (issue 17, item 3): their own picture
// (judged by its bytes and size, stored in R2, the old one deleted, served to their patients alone) and
// the languages they consult in (shown on the card and to admins); each change audited, and only ever
// their own.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, doctors } from "~/db/schema";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, sessionCookieFor, signedIn } from "./fixtures";
import { EXE_BYTES, JPEG_BYTES, largeJpeg, photoFile, PNG_BYTES, pngDeclaring, SVG_BYTES } from "./photos";

const CARD = "/doctor/profile/card";
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

async function doctorVisitor() {
  const doctorId = await createUser("doctor");
  return { doctorId, doctor: new Visitor(await sessionCookieFor(doctorId)) };
}

const upload = (visitor: Visitor, file: File | null) => {
  const form = new FormData();
  form.append("intent", "upload-picture");
  form.append("picture", file ?? new File([], "", { type: "application/octet-stream" }));
  return visitor.postMultipart(CARD, form);
};

const pictureKey = async (doctorId: string) =>
  (await db.query.doctors.findFirst({ where: eq(doctors.userId, doctorId), columns: { profilePictureKey: true } }))?.profilePictureKey;

const languagesOf = async (doctorId: string) =>
  (await db.query.doctors.findFirst({ where: eq(doctors.userId, doctorId), columns: { consultationLanguages: true } }))
    ?.consultationLanguages;

const auditActions = async (doctorId: string) =>
  (await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, doctorId))).map((row) => row.action);

/** A patient whose request `doctorId` has accepted, on the payment page's side. */
async function patientOf(doctorId: string) {
  const patientId = await createUser("patient");
  const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
    doctorId,
    acceptedAt: new Date(),
    paymentDeadlineAt: new Date(Date.now() + 14 * 60_000),
  });
  return { patient: new Visitor(await sessionCookieFor(patientId)), consultationId: consultation.id };
}

describe("the doctor's picture", () => {
  it("is stored, shown to the patients of the doctor's consultations alone, replaced and removed with its object", async () => {
    const { doctorId, doctor } = await doctorVisitor();
    const saved = await upload(doctor, photoFile(PNG_BYTES, "me.png"));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(CARD);
    const firstKey = await pictureKey(doctorId);
    expect(firstKey).toMatch(new RegExp(`^doctor-pictures/${doctorId}/`));
    expect((await env.FILES.head(firstKey!))?.httpMetadata?.contentType).toBe("image/png");
    // The doctor sees it in the preview of their card.
    const page = await (await doctor.get(CARD)).text();
    expect(page).toContain("/doctor/profile/picture?v=");
    expect((await doctor.get("/doctor/profile/picture")).headers.get("Content-Type")).toBe("image/png");

    // Their patient sees it before paying; another patient, or the patient of another doctor, does not.
    const { patient, consultationId } = await patientOf(doctorId);
    expect(await (await patient.get(`/patient/payment/${consultationId}`)).text()).toContain(
      `/patient/payment/${consultationId}/doctor-picture?v=`,
    );
    const served = await patient.get(`/patient/payment/${consultationId}/doctor-picture`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_BYTES);
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.get(`/patient/payment/${consultationId}/doctor-picture`)).status).toBe(404);
    const otherDoctors = await patientOf(await createUser("doctor"));
    expect((await otherDoctors.patient.get(`/patient/payment/${otherDoctors.consultationId}/doctor-picture`)).status).toBe(404);

    // A new picture replaces the old one, whose object is deleted.
    expect((await upload(doctor, photoFile(JPEG_BYTES, "me.jpg", "image/jpeg"))).status).toBe(302);
    const secondKey = await pictureKey(doctorId);
    expect(secondKey).not.toBe(firstKey);
    expect(await env.FILES.head(firstKey!)).toBeNull();
    expect((await patient.get(`/patient/payment/${consultationId}/doctor-picture`)).headers.get("Content-Type")).toBe("image/jpeg");

    // Removed: off the card and out of R2.
    const removed = await doctor.post(CARD, { intent: "remove-picture" });
    expect(removed.status).toBe(302);
    expect(await pictureKey(doctorId)).toBeNull();
    expect(await env.FILES.head(secondKey!)).toBeNull();
    expect(await (await patient.get(`/patient/payment/${consultationId}`)).text()).not.toContain("doctor-picture");
    expect((await patient.get(`/patient/payment/${consultationId}/doctor-picture`)).status).toBe(404);
    expect(await auditActions(doctorId)).toEqual(["doctor.picture_changed", "doctor.picture_changed", "doctor.picture_removed"]);
  });

  it("refuses what is too large, of another type, or missing, with a 4xx in the doctor's language and nothing stored", async () => {
    const { doctorId, doctor } = await doctorVisitor();
    const refusals: Array<[File | null, number, string]> = [
      [null, 400, "Choose a picture to upload."],
      [largeJpeg(2 * 1024 * 1024 + 1), 413, "This picture is larger than 2 MB."],
      // Declared far too large: refused before its body is read.
      [largeJpeg(5 * 1024 * 1024), 413, "This picture is larger than 2 MB."],
      [photoFile(pngDeclaring(5000, 4000), "huge.png"), 413, "This picture has more than 16 megapixels."],
      [photoFile(EXE_BYTES, "me.png"), 415, "The picture must be a JPG, PNG or WebP image."],
      [photoFile(SVG_BYTES, "me.svg", "image/svg+xml"), 415, "The picture must be a JPG, PNG or WebP image."],
    ];
    for (const [file, status, message] of refusals) {
      const answer = await upload(doctor, file);
      expect(answer.status).toBe(status);
      expect(text(await answer.text())).toContain(message);
    }
    await doctor.get("/?lng=am");
    const amharic = await upload(doctor, largeJpeg(2 * 1024 * 1024 + 1));
    expect(amharic.status).toBe(413);
    expect(text(await amharic.text())).toContain("ይህ ፎቶ ከ2 MB ይበልጣል።");
    expect(await pictureKey(doctorId)).toBeNull();
    expect((await env.FILES.list({ prefix: `doctor-pictures/${doctorId}` })).objects).toEqual([]);
    expect(await auditActions(doctorId)).toEqual([]);
  });
});

describe("the doctor's languages", () => {
  it("are saved, shown on the card in the reader's language and to admins, and never left empty", async () => {
    const { doctorId, doctor } = await doctorVisitor();
    // The profile says what patients read, and links to the page that changes it.
    const profile = text(await (await doctor.get("/doctor/profile")).text());
    expect(profile).toContain("You consult in Amharic, English. No picture yet.");
    expect(profile).toContain(`href="${CARD}"`);

    const none = await doctor.post(CARD, { intent: "save-languages" });
    expect(none.status).toBe(400);
    expect(text(await none.text())).toContain("Choose at least one language.");
    expect(await languagesOf(doctorId)).toBe("am,en");

    expect((await doctor.post(CARD, { intent: "save-languages", languages: ["en", "xx"] })).status).toBe(302);
    expect(await languagesOf(doctorId)).toBe("en");
    const { patient, consultationId } = await patientOf(doctorId);
    expect(text(await (await patient.get(`/patient/payment/${consultationId}`)).text())).toContain("Speaks: English");
    await patient.get("/?lng=am");
    expect(text(await (await patient.get(`/patient/payment/${consultationId}`)).text())).toContain("የሚናገሯቸው ቋንቋዎች፦ እንግሊዝኛ");

    // Offered and kept in one order, whatever order they come in.
    expect((await doctor.post(CARD, { intent: "save-languages", languages: ["en", "am"] })).status).toBe(302);
    expect(await languagesOf(doctorId)).toBe("am,en");
    await patient.get("/?lng=en");
    expect(text(await (await patient.get(`/patient/payment/${consultationId}`)).text())).toContain("Speaks: Amharic, English");
    const [audit] = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, doctorId), eq(auditLog.action, "doctor.languages_changed")));
    expect(audit?.details).toEqual({ before: "am,en", after: "en" });

    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    expect(text(await (await admin.get(`/admin/doctors/${doctorId}`)).text())).toContain("Consults in: Amharic, English");
  });
});

describe("a doctor's card", () => {
  it("is changed by that doctor alone", async () => {
    const { doctorId, doctor } = await doctorVisitor();
    expect((await upload(doctor, photoFile(PNG_BYTES, "me.png"))).status).toBe(302);
    const key = await pictureKey(doctorId);

    // Another doctor's posts change their own card only: the page acts on the session's doctor.
    const { doctorId: otherId, doctor: other } = await doctorVisitor();
    expect((await other.post(CARD, { intent: "save-languages", languages: "en", doctorId })).status).toBe(302);
    expect((await other.post(CARD, { intent: "remove-picture", doctorId })).status).toBe(302);
    expect(await languagesOf(otherId)).toBe("en");
    expect(await languagesOf(doctorId)).toBe("am,en");
    expect(await pictureKey(doctorId)).toBe(key);
    expect(await env.FILES.head(key!)).not.toBeNull();

    // Nobody else may post at all.
    const patient = await signedIn("patient");
    const refused = await new Visitor(patient.cookie).post(CARD, { intent: "remove-picture" });
    expect(refused.headers.get("Location")).toBe("/access-denied");
    const inactive = await signedIn("doctor", { doctorStatus: "inactive" });
    expect((await new Visitor(inactive.cookie).post(CARD, { intent: "save-languages", languages: "en" })).headers.get("Location")).toBe(
      "/account-issue",
    );
    expect(await pictureKey(doctorId)).toBe(key);
    expect(await auditActions(doctorId)).toEqual(["doctor.picture_changed"]);
  });
});

describe("an admin's picture of a doctor", () => {
  it("replaces the one the doctor uploaded, whose object is deleted", async () => {
    const { doctorId, doctor } = await doctorVisitor();
    expect((await upload(doctor, photoFile(PNG_BYTES, "me.png"))).status).toBe(302);
    const own = await pictureKey(doctorId);
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    const form = new FormData();
    const fields = {
      intent: "update-doctor",
      firstName: "Test",
      lastName: "doctor",
      email: `doctor-${doctorId}@qoda.test`,
      phone: "",
      specialty: "Dermatologist",
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("picture", photoFile(JPEG_BYTES, "by-admin.jpg", "image/jpeg"));
    expect((await admin.postMultipart(`/admin/doctors/${doctorId}`, form)).status).toBe(302);
    expect(await pictureKey(doctorId)).toBe(`doctor-pictures/${doctorId}`);
    expect(await env.FILES.head(own!)).toBeNull();
  });
});
