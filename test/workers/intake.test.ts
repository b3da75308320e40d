import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { consultations } from "~/db/schema";
import { waitingRequests } from "~/server/waiting-requests.server";

import { Visitor } from "./browser-like";
import { createConsultation, db, INTAKE_FORM, signedIn } from "./fixtures";

async function patientVisitor() {
  const patient = await signedIn("patient");
  return { ...patient, visitor: new Visitor(patient.cookie) };
}

const ownRequests = (patientId: string) => db.select().from(consultations).where(eq(consultations.patientId, patientId));

describe("the structured intake of step 2", () => {
  it("is a plain form: labels in the reader's language and a checkbox for every body area", async () => {
    const { visitor } = await patientVisitor();
    const english = await (await visitor.get("/patient/new-consultation?step=2")).text();
    for (const label of ["Age (years)", "Female", "Where is it? Choose every area it affects.", "Left forearm", "Upper back", "Itch"])
      expect(english).toContain(label);
    expect(english.match(/name="bodyAreas"/g)).toHaveLength(21);
    // The map's areas are labels of those same checkboxes, so a tap on the drawing ticks one without script.
    expect(english).toMatch(/<label for="body-area-left_forearm" data-area="left_forearm"/);
    const amharic = await (await visitor.get("/patient/new-consultation?step=2&lng=am")).text();
    for (const label of ["ዕድሜ (በዓመት)", "ሴት", "የግራ ታችኛው ክንድ", "የላይኛው ጀርባ", "ማሳከክ"]) expect(amharic).toContain(label);
  });

  it("stores every answer as posted without JavaScript, several areas and symptoms at once", async () => {
    const { visitor, userId } = await patientVisitor();
    const response = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      chiefComplaint: "Itchy rings",
      ageYears: "34",
      sex: "female",
      bodyAreas: ["upper_back", "left_forearm"],
      durationAmount: "3",
      durationUnit: "weeks",
      symptoms: ["spreading", "itch"],
      treatmentsTried: "Hydrocortisone cream",
      allergies: "Penicillin",
      pregnancy: "breastfeeding",
    });
    expect(response.status).toBe(302);
    const [stored] = await ownRequests(userId);
    expect(stored).toMatchObject({
      status: "pending",
      patientAgeYears: 34,
      patientSex: "female",
      // Stored in the map's order, whatever order they came in.
      bodyAreas: "left_forearm,upper_back",
      durationAmount: 3,
      durationUnit: "weeks",
      symptoms: "itch,spreading",
      treatmentsTried: "Hydrocortisone cream",
      allergies: "Penicillin",
      pregnancy: "breastfeeding",
    });
  });

  it("asks pregnancy only of those it applies to: a man's answer is not kept", async () => {
    const { visitor, userId } = await patientVisitor();
    await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      chiefComplaint: "Rash",
      ...INTAKE_FORM,
      sex: "male",
      pregnancy: "pregnant",
    });
    const [stored] = await ownRequests(userId);
    expect(stored?.pregnancy).toBeNull();
  });

  it("refuses a request without age, sex, body area or how long, says which, keeps the words, and creates nothing", async () => {
    const { visitor, userId } = await patientVisitor();
    const response = await visitor.post("/patient/new-consultation?step=2", { intent: "submit", chiefComplaint: "A rash I describe" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html.match(/This field is required\./g)?.length).toBeGreaterThanOrEqual(5);
    expect(html).toContain("A rash I describe");
    expect(await ownRequests(userId)).toHaveLength(0);
    const amharic = await visitor.post("/patient/new-consultation?step=2&lng=am", { intent: "submit", chiefComplaint: "ሽፍታ" });
    expect(amharic.status).toBe(400);
    expect(await amharic.text()).toContain("ይህ መስክ መሞላት አለበት።");
  });

  it("answers forged values with a 400 and a message, never a 500", async () => {
    const { visitor, userId } = await patientVisitor();
    const forgeries: Record<string, string | string[]>[] = [
      { ageYears: "200" },
      { ageYears: "-3" },
      { ageYears: "thirty" },
      { sex: "other" },
      { bodyAreas: ["left_forearm", "tail"] },
      { durationAmount: "0" },
      { durationUnit: "decades" },
      { symptoms: "sneezing" },
      { pregnancy: "maybe" },
      { allergies: "x".repeat(1001) },
    ];
    for (const forged of forgeries) {
      const response = await visitor.post("/patient/new-consultation?step=2", {
        intent: "submit",
        chiefComplaint: "Rash",
        ...INTAKE_FORM,
        ...forged,
      });
      expect(response.status, JSON.stringify(forged)).toBe(400);
      expect(await response.text(), JSON.stringify(forged)).toMatch(/Please check this field\.|This is too long\./);
    }
    expect(await ownRequests(userId)).toHaveLength(0);
  });

  it('keeps the intake in the draft on "Previous" and shows it again', async () => {
    const { visitor } = await patientVisitor();
    const back = await visitor.post("/patient/new-consultation?step=2", {
      intent: "back",
      chiefComplaint: "Spots",
      ageYears: "8",
      bodyAreas: ["face", "neck"],
      symptoms: "fever",
    });
    expect(back.status).toBe(302);
    const draftId = new URL(back.headers.get("Location")!, "https://qoda.test").searchParams.get("draft")!;
    const html = await (await visitor.get(`/patient/new-consultation?step=2&draft=${draftId}`)).text();
    expect(html).toMatch(/id="body-area-face"[^>]*checked/);
    expect(html).toMatch(/id="body-area-neck"[^>]*checked/);
    expect(html).not.toMatch(/id="body-area-chest"[^>]*checked/);
    expect(html).toMatch(/value="8"/);
  });
});

describe("the triage line", () => {
  it("reaches the doctors' queue in both languages, and is empty for a request from before the intake", async () => {
    const { visitor } = await patientVisitor();
    await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      chiefComplaint: "Triage me",
      ...INTAKE_FORM,
      symptoms: ["itch", "spreading"],
    });
    const older = await createConsultation((await signedIn("patient")).userId, "pending");
    const queue = (await waitingRequests(db)).map((request) => request.summary);
    const mine = queue.find((request) => request.title === "Triage me");
    expect(mine?.triage).toEqual({
      en: "F, 34 · left forearm · 3 weeks · itch, spreading",
      am: "ሴት፣ 34 · የግራ ታችኛው ክንድ · 3 ሳምንት · ማሳከክ፣ መስፋፋት",
    });
    expect(queue.find((request) => request.id === older.id)?.triage).toEqual({ en: "", am: "" });
  });

  it("heads the intake on the doctor's page, worded for the doctor; an older request shows without it", async () => {
    const { visitor } = await patientVisitor();
    await visitor.post("/patient/new-consultation?step=2", { intent: "submit", chiefComplaint: "On the page", ...INTAKE_FORM });
    const [request] = await db.select().from(consultations).where(eq(consultations.mainConcern, "On the page"));
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    const page = await (await doctor.get(`/doctor/consultation/${request!.id}`)).text();
    expect(page).toContain('data-testid="triage-line">F, 34 · left forearm · 3 weeks</p>');
    expect(page).toContain("Intake");
    const amharic = await (await doctor.get(`/doctor/consultation/${request!.id}?lng=am`)).text();
    expect(amharic).toContain("ሴት፣ 34 · የግራ ታችኛው ክንድ · 3 ሳምንት");
    const older = await createConsultation((await signedIn("patient")).userId, "pending", { mainConcern: "From before" });
    const olderPage = await (await doctor.get(`/doctor/consultation/${older.id}?lng=en`)).text();
    expect(olderPage).toContain("From before");
    expect(olderPage).not.toContain('data-testid="triage-line"');
  });
});
