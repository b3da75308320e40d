import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { consultationFiles } from "~/db/schema";

import { Visitor } from "./browser-like";
import { db, INTAKE_FORM, ORIGIN, signedIn } from "./fixtures";
import { photoFile, PNG_BYTES } from "./photos";

async function patientVisitor() {
  const patient = await signedIn("patient");
  return { ...patient, visitor: new Visitor(patient.cookie) };
}

/** Uploads photos as the wizard does with JavaScript, with what they show when given. */
async function upload(visitor: Visitor, fields: Record<string, string> = {}, draftId?: string) {
  const form = new FormData();
  if (draftId) form.append("draftId", draftId);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("photo", photoFile(PNG_BYTES, "rash.png"));
  const response = await visitor.postMultipart("/patient/new-consultation/photos", form);
  return { status: response.status, body: (await response.json()) as { draftId?: string; photoIds?: string[]; error?: string } };
}

/** Says what a photo shows as the page does with JavaScript (the photos route, JSON back). */
async function describeWithScript(visitor: Visitor, fields: Record<string, string>) {
  const response = await visitor.post("/patient/new-consultation/photos", { intent: "describe-photo", ...fields });
  return { status: response.status, body: (await response.json()) as { draftId?: string; error?: string } };
}

async function descriptionOf(photoId: string) {
  const [row] = await db
    .select({ photoKind: consultationFiles.photoKind, bodyArea: consultationFiles.bodyArea })
    .from(consultationFiles)
    .where(eq(consultationFiles.id, photoId));
  return row;
}

describe("guided photos", () => {
  it("step 1 shows the guide's drawings, each with its words, and a kind and body area for each photo", async () => {
    const { visitor } = await patientVisitor();
    const { body } = await upload(visitor, { photoKind: "distance", bodyArea: "left_thigh" });
    const html = await (await visitor.get(`/patient/new-consultation?step=1&draft=${body.draftId}`)).text();
    for (const drawing of ["close-up", "distance", "light", "coin"]) expect(html).toContain(`src="/photo-guide/${drawing}.svg"`);
    expect(html).toContain('alt="Drawing: a coin lying beside a spot on the skin"');
    expect(html).toContain("A coin for scale");
    expect(html).toMatch(/<option value="distance" selected="">From a distance<\/option>/);
    expect(html).toMatch(/<option value="left_thigh" selected="">Left thigh<\/option>/);
  });

  it("stores the kind and area sent with an upload, and changes or clears them with and without JavaScript", async () => {
    const { visitor } = await patientVisitor();
    const first = await upload(visitor, { photoKind: "close_up", bodyArea: "right_forearm" });
    expect(first.status).toBe(200);
    const photoId = first.body.photoIds![0]!;
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "close_up", bodyArea: "right_forearm" });
    // An upload that says nothing leaves both unsaid.
    const second = await upload(visitor, {}, first.body.draftId);
    expect(await descriptionOf(second.body.photoIds![0]!)).toEqual({ photoKind: null, bodyArea: null });

    const changed = await describeWithScript(visitor, { photoId, photoKind: "distance", bodyArea: "scalp" });
    expect(changed).toEqual({ status: 200, body: { draftId: first.body.draftId } });
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "distance", bodyArea: "scalp" });

    // Without JavaScript: the photo's own form, then back to step 1.
    const posted = await visitor.post(`/patient/new-consultation?step=1&draft=${first.body.draftId}`, {
      intent: "describe-photo",
      photoId,
      photoKind: "other",
      bodyArea: "",
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe(`/patient/new-consultation?step=1&draft=${first.body.draftId}`);
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "other", bodyArea: null });
  });

  it("stores the kind and area of the form without JavaScript for every photo of its upload", async () => {
    const { visitor } = await patientVisitor();
    const form = new FormData();
    form.append("intent", "upload-photos");
    form.append("photoKind", "close_up");
    form.append("bodyArea", "face");
    form.append("photo", photoFile(PNG_BYTES, "a.png"));
    form.append("photo", photoFile(PNG_BYTES, "b.png"));
    const uploaded = await visitor.postMultipart("/patient/new-consultation", form);
    expect(uploaded.status).toBe(302);
    const draftId = new URL(uploaded.headers.get("Location")!, ORIGIN).searchParams.get("draft")!;
    const rows = await db.select().from(consultationFiles).where(eq(consultationFiles.consultationId, draftId));
    expect(rows.map(({ photoKind, bodyArea }) => ({ photoKind, bodyArea }))).toEqual([
      { photoKind: "close_up", bodyArea: "face" },
      { photoKind: "close_up", bodyArea: "face" },
    ]);
  });

  it("refuses values off the lists with a clear 400 in the patient's language, and stores nothing", async () => {
    const { visitor, userId } = await patientVisitor();
    const refusedUpload = await upload(visitor, { photoKind: "selfie" });
    expect(refusedUpload).toEqual({ status: 400, body: { error: "Please choose the kind of photo from the list." } });
    expect(await db.$count(consultationFiles, eq(consultationFiles.uploaderId, userId))).toBe(0);

    const { body } = await upload(visitor, { photoKind: "close_up", bodyArea: "neck" });
    const photoId = body.photoIds![0]!;
    expect(await describeWithScript(visitor, { photoId, bodyArea: "elbow" })).toEqual({
      status: 400,
      body: { error: "Please choose the body area from the list." },
    });
    const page = await visitor.post(`/patient/new-consultation?step=1&draft=${body.draftId}`, {
      intent: "describe-photo",
      photoId,
      photoKind: "panorama",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Please choose the kind of photo from the list.");

    await visitor.get("/?lng=am");
    const inAmharic = await describeWithScript(visitor, { photoId, bodyArea: "elbow" });
    expect(inAmharic).toEqual({ status: 400, body: { error: "እባክዎ የሰውነት ክፍሉን ከዝርዝሩ ይምረጡ።" } });
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "close_up", bodyArea: "neck" });
  });

  it("refuses another patient's photo, a photo id that is not one, and a photo of a request already sent", async () => {
    const owner = await patientVisitor();
    const { body } = await upload(owner.visitor, { photoKind: "close_up", bodyArea: "chest" });
    const photoId = body.photoIds![0]!;

    const intruder = await patientVisitor();
    const notFound = { status: 404, body: { error: "This photo could not be found among the photos of your request." } };
    expect(await describeWithScript(intruder.visitor, { photoId, photoKind: "other" })).toEqual(notFound);
    expect(await describeWithScript(intruder.visitor, { photoId: "not-a-uuid", photoKind: "other" })).toEqual(notFound);
    const page = await intruder.visitor.post("/patient/new-consultation?step=1", { intent: "describe-photo", photoId, photoKind: "other" });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This photo could not be found among the photos of your request.");
    const doctor = await signedIn("doctor");
    const asDoctor = await new Visitor(doctor.cookie).post("/patient/new-consultation/photos", { intent: "describe-photo", photoId });
    expect(asDoctor.headers.get("Location")).toBe("/access-denied");
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "close_up", bodyArea: "chest" });

    await owner.visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId: body.draftId!,
      ...INTAKE_FORM,
      chiefComplaint: "Rash",
    });
    expect(await describeWithScript(owner.visitor, { photoId, photoKind: "other" })).toEqual(notFound);
    expect(await descriptionOf(photoId)).toEqual({ photoKind: "close_up", bodyArea: "chest" });
  });

  it("shows the doctor what each photo shows, in the doctor's language", async () => {
    const { visitor } = await patientVisitor();
    const { body } = await upload(visitor, { photoKind: "close_up", bodyArea: "right_forearm" });
    await upload(visitor, {}, body.draftId);
    await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      draftId: body.draftId!,
      ...INTAKE_FORM,
      chiefComplaint: "Rash",
    });
    const doctor = await signedIn("doctor");
    const doctorVisitor = new Visitor(doctor.cookie);
    const page = await (await doctorVisitor.get(`/doctor/consultation/${body.draftId}`)).text();
    expect(page.match(/data-testid="photo-caption"[^>]*>[^<]*/g)?.map((found) => found.replace(/.*>/, ""))).toEqual([
      "Close-up · Right forearm",
    ]);
    await doctorVisitor.get("/?lng=am");
    expect(await (await doctorVisitor.get(`/doctor/consultation/${body.draftId}`)).text()).toContain("በቅርበት የተነሳ · የቀኝ ታችኛው ክንድ");
  });
});
