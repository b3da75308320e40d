// A completed consultation's printable summary: its patient and its doctor read it, an admin only
// within an opening; in the reader's language with Ethiopian dates in Amharic (and beside the
// Gregorian ones in English), the other language below on request; a page with no script.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { consultations, doctors } from "~/db/schema";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, sessionCookieFor } from "./fixtures";

const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

async function completedConsultation() {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  await db.update(doctors).set({ licenceNumber: "MOH-DERM-04417" }).where(eq(doctors.userId, doctorId));
  const consultation = await createConsultation(patientId, "completed", { doctorId });
  await db
    .update(consultations)
    .set({
      completedAt: new Date("2026-11-24T12:00:00Z"),
      createdAt: new Date("2026-11-24T09:00:00Z"),
      mainConcern: "Itchy red patches on both elbows.",
      observations: "Dry, scaly plaques.",
      diagnosis: "Atopic dermatitis",
      treatmentPlan: "Emollient twice a day.",
    })
    .where(eq(consultations.id, consultation.id));
  return { patientId, doctorId, consultationId: consultation.id };
}

describe("the printable summary", () => {
  it("is its patient's, in English with the Ethiopian date beside, and with Amharic below on request; no script", async () => {
    const { patientId, consultationId } = await completedConsultation();
    const patient = new Visitor(await sessionCookieFor(patientId));
    const page = await patient.get(`/patient/consultation/${consultationId}/summary`);
    expect(page.status).toBe(200);
    const html = text(await page.text());
    expect(html).toContain("Consultation summary");
    expect(html).toContain("Atopic dermatitis");
    expect(html).toContain("Itchy red patches on both elbows.");
    expect(html).toContain("MOH-DERM-04417");
    expect(html).toContain("24 Nov 2026 (ኅዳር 15 ቀን 2019 ዓ.ም.)");
    expect(html).not.toMatch(/<script[^>]+type="module"/);
    expect([...html.matchAll(/data-testid="summary-document"/g)]).toHaveLength(1);

    const both = text(await (await patient.get(`/patient/consultation/${consultationId}/summary?both=1`)).text());
    expect([...both.matchAll(/data-testid="summary-document"/g)]).toHaveLength(2);
    expect(both).toContain('lang="am"');
    expect(both).toContain("የምክክር ማጠቃለያ");

    await patient.get("/?lng=am");
    const amharic = text(await (await patient.get(`/patient/consultation/${consultationId}/summary`)).text());
    expect(amharic).toContain("የምክክር ማጠቃለያ");
    expect(amharic).toContain("ኅዳር 15 ቀን 2019 ዓ.ም.");
    expect(amharic).not.toContain("24 Nov 2026");
  });

  it("is not another patient's, nor there before the consultation has ended", async () => {
    const { consultationId } = await completedConsultation();
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.get(`/patient/consultation/${consultationId}/summary`)).status).toBe(404);

    const patientId = await createUser("patient");
    const ongoing = await createConsultation(patientId, "in_progress", { doctorId: await createUser("doctor") });
    const patient = new Visitor(await sessionCookieFor(patientId));
    expect((await patient.get(`/patient/consultation/${ongoing.id}/summary`)).status).toBe(404);
    expect((await patient.get(`/patient/consultation/not-an-id/summary`)).status).toBe(404);
  });

  it("is its doctor's to read, not another doctor's", async () => {
    const { doctorId, consultationId } = await completedConsultation();
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const page = await doctor.get(`/doctor/consultation/${consultationId}/summary`);
    expect(page.status).toBe(200);
    expect(text(await page.text())).toContain("Atopic dermatitis");
    const other = new Visitor(await sessionCookieFor(await createUser("doctor")));
    expect((await other.get(`/doctor/consultation/${consultationId}/summary`)).status).toBe(404);
  });

  it("is an admin's only after they said why they open the consultation", async () => {
    const { consultationId } = await completedConsultation();
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    const closed = await admin.get(`/admin/consultations/${consultationId}/summary`);
    expect(closed.status).toBe(403);
    const closedHtml = text(await closed.text());
    expect(closedHtml).toContain("only after saying why they open it");
    expect(closedHtml).not.toContain("Atopic dermatitis");
    expect((await admin.post(`/admin/consultations/${consultationId}`, { reason: "Quality review" })).status).toBe(302);
    const open = await admin.get(`/admin/consultations/${consultationId}/summary`);
    expect(open.status).toBe(200);
    expect(text(await open.text())).toContain("Atopic dermatitis");
  });

  it("is linked from the consultation's own pages", async () => {
    const { patientId, doctorId, consultationId } = await completedConsultation();
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    expect(await (await doctor.get(`/doctor/consultation/${consultationId}`)).text()).toContain(
      `href="/doctor/consultation/${consultationId}/summary"`,
    );
    const patient = new Visitor(await sessionCookieFor(patientId));
    const feedback = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(feedback.html).toContain(`href="/patient/consultation/${consultationId}/summary"`);
  });
});
