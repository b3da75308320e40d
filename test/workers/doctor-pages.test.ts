// A doctor's own pages: the waiting list on the dashboard, My Patients, and how requests read there.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { consultationFiles, doctors } from "~/db/schema";

import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, signedIn } from "./fixtures";

describe("the doctor's dashboard", () => {
  it("lists the waiting requests with how long they have waited, their photos, and which asked for this doctor", async () => {
    const doctor = await signedIn("doctor");
    const code = (await db.query.doctors.findFirst({ where: eq(doctors.userId, doctor.userId) }))!.doctorCode!;
    const patientId = await createUser("patient");
    const forMe = await createConsultation(patientId, "pending", {
      title: `Asked for me ${code}`,
      requestedDoctorCode: code,
      createdAt: new Date(Date.now() - 7 * 60_000),
    });
    await db.insert(consultationFiles).values(
      [1, 2].map((index) => ({
        consultationId: forMe.id,
        uploaderId: patientId,
        kind: "photo" as const,
        storageKey: `test/${forMe.id}/${index}`,
        contentType: "image/png" as const,
        sizeBytes: 10,
      })),
    );
    const page = await (await new Visitor(doctor.cookie).get("/doctor/dashboard")).text();
    const item = page.slice(page.indexOf(`Asked for me ${code}`) - 1500, page.indexOf(`Asked for me ${code}`) + 600);
    expect(item).toContain("Asked for you");
    expect(item).toMatch(/waiting [78] min/);
    expect(item).toContain("Test · 2 photos");
    expect(item).toContain(`href="/doctor/consultation/${forMe.id}"`);
    const inAmharic = await (await new Visitor(doctor.cookie).get("/doctor/dashboard?lng=am")).text();
    expect(inAmharic).toContain("ንቁ");
    expect(inAmharic).toContain("እርስዎን ጠይቋል");
  });
});

describe("My Patients", () => {
  it("links each patient to their consultations, and counts them in good English and Amharic", async () => {
    const doctor = await signedIn("doctor");
    const patientId = await createUser("patient");
    await createConsultation(patientId, "completed", { doctorId: doctor.userId, completedAt: new Date() });
    const visitor = new Visitor(doctor.cookie);
    const page = await (await visitor.get("/doctor/patients")).text();
    expect(page).toContain("1 consultation · 0 ongoing · 1 completed");
    expect(page).toContain(`href="/doctor/consultations?q=patient-${patientId}%40qoda.test"`);
    const list = await (await visitor.get(`/doctor/consultations?q=${encodeURIComponent(`patient-${patientId}@qoda.test`)}`)).text();
    expect(list).toContain("Itchy rash");
    expect(await (await visitor.get("/doctor/patients?lng=am")).text()).toContain("ምክክሮች፦ 1");
  });

  it("searches for long or odd text without failing, and takes % and _ literally", async () => {
    const doctor = await signedIn("doctor");
    const patientId = await createUser("patient");
    await createConsultation(patientId, "completed", { doctorId: doctor.userId, title: "100% itchy_spots" });
    const visitor = new Visitor(doctor.cookie);
    for (const search of ["x".repeat(500), "ሽፍታ".repeat(40), "%", "_", "'; DROP TABLE consultations; --"]) {
      const response = await visitor.get(`/doctor/consultations?q=${encodeURIComponent(search)}`);
      expect(response.status, search).toBe(200);
      const page = await response.text();
      if (search === "%" || search === "_") expect(page, search).toContain("100% itchy_spots");
      else expect(page, search).not.toContain("100% itchy_spots");
    }
    expect(await (await visitor.get("/doctor/consultations?q=50%25")).text()).not.toContain("100% itchy_spots");
    expect((await visitor.get(`/doctor/patients?q=${encodeURIComponent("y".repeat(300))}`)).status).toBe(200);
  });
});
