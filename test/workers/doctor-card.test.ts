// The doctor before paying: the payment page says who accepted (name, specialty, experience,
// consultations completed, an average rating only from five ratings up, the languages they consult in,
// when the licence was verified), with their picture served to that patient alone; in English and Amharic.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { doctors, patientFeedback } from "~/db/schema";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, sessionCookieFor } from "./fixtures";
import { PNG_BYTES } from "./photos";

const text = (html: string) => html.replace(/<!-- -->/g, "");

/** A request a doctor with `ratings` ratings of 5 (and as many completed consultations) has accepted. */
async function acceptedBy(ratings: number) {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  await db.update(doctors).set({ experienceYears: 7, specialty: "Dermatologist" }).where(eq(doctors.userId, doctorId));
  for (let index = 0; index < ratings; index++) {
    const other = await createUser("patient");
    const done = await createConsultation(other, "completed", { doctorId });
    await db.insert(patientFeedback).values({ consultationId: done.id, patientId: other, doctorId, rating: index === 0 ? 4 : 5 });
  }
  const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
    doctorId,
    acceptedAt: new Date(),
    paymentDeadlineAt: new Date(Date.now() + 14 * 60_000),
  });
  return { patientId, doctorId, consultationId: consultation.id };
}

describe("the doctor before paying", () => {
  it("is shown with experience and completed consultations, and no average from fewer than five ratings", async () => {
    const { patientId, consultationId } = await acceptedBy(4);
    const patient = new Visitor(await sessionCookieFor(patientId));
    const html = text(await (await patient.get(`/patient/payment/${consultationId}`)).text());
    expect(html).toContain('data-testid="paying-doctor"');
    expect(html).toContain("Dr. Test doctor");
    expect(html).toContain("7 years of experience");
    expect(html).toContain("Speaks: Amharic, English");
    expect(html).toContain("4 consultations completed on Qoda");
    expect(html).toContain("Not enough ratings yet to show an average.");
    expect(html).toMatch(/✓ Licence verified by Qoda on \d{1,2} \w{3} \d{4}/);
    // No picture yet: no image is offered.
    expect(html).not.toContain(`/patient/payment/${consultationId}/doctor-picture`);
  });

  it("shows the average from five ratings up, in Amharic too", async () => {
    const { patientId, consultationId } = await acceptedBy(5);
    const patient = new Visitor(await sessionCookieFor(patientId));
    expect(text(await (await patient.get(`/patient/payment/${consultationId}`)).text())).toContain("Rated 4.8 of 5 by 5 patients");
    await patient.get("/?lng=am");
    const amharic = text(await (await patient.get(`/patient/payment/${consultationId}`)).text());
    expect(amharic).toContain("5 ታካሚዎች በአማካይ ከ5 4.8 ሰጥተዋቸዋል");
    expect(amharic).toContain("የ7 ዓመታት ልምድ");
    expect(amharic).toContain("የሚናገሯቸው ቋንቋዎች፦ አማርኛ፣ እንግሊዝኛ");
  });

  it("has a picture that only this patient can load", async () => {
    const { patientId, doctorId, consultationId } = await acceptedBy(0);
    const key = `doctor-pictures/${doctorId}`;
    await env.FILES.put(key, PNG_BYTES, { httpMetadata: { contentType: "image/png" } });
    await db.update(doctors).set({ profilePictureKey: key }).where(eq(doctors.userId, doctorId));
    const patient = new Visitor(await sessionCookieFor(patientId));
    expect(await (await patient.get(`/patient/payment/${consultationId}`)).text()).toContain(
      `/patient/payment/${consultationId}/doctor-picture`,
    );
    const picture = await patient.get(`/patient/payment/${consultationId}/doctor-picture`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("Content-Type")).toBe("image/png");
    expect(picture.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.get(`/patient/payment/${consultationId}/doctor-picture`)).status).toBe(404);
  });
});
