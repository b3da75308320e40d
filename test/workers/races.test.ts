// Item 3 of the attacker's findings: caps and "one submit, one request" hold however many requests
// arrive at once.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { auditLog, consultationFiles, consultations } from "~/db/schema";
import { MAX_PHOTOS_PER_REQUEST } from "~/domain/constants";
import { RATE_LIMITS } from "~/domain/rate-limits";

import { emailsTo, lastEmailTo, markerMailArrives, registeredPatient, registrationForm, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { db, INTAKE_FORM, signedIn } from "./fixtures";
import { photoFile, PNG_BYTES } from "./photos";

async function patientVisitor() {
  const patient = await signedIn("patient");
  return { ...patient, visitor: new Visitor(patient.cookie) };
}

function uploadForm(draftId: string | null, name: string) {
  const form = new FormData();
  if (draftId) form.append("draftId", draftId);
  form.append("photo", photoFile(PNG_BYTES, name));
  return form;
}

describe("racing uploads into one draft", () => {
  it("store at most 10 photos, in D1 and in R2, and the rest are told why", async () => {
    const { visitor } = await patientVisitor();
    const first = await visitor.postMultipart("/patient/new-consultation/photos", uploadForm(null, "first.png"));
    const { draftId } = (await first.json()) as { draftId: string };

    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        visitor.postMultipart("/patient/new-consultation/photos", uploadForm(draftId, `p${index}.png`)),
      ),
    );
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{ photoIds: string[]; errors: string[] }>;
    expect(bodies.filter((body) => body.photoIds.length === 1)).toHaveLength(MAX_PHOTOS_PER_REQUEST - 1);
    const refused = bodies.filter((body) => body.photoIds.length === 0);
    expect(refused).toHaveLength(6);
    for (const body of refused) expect(body.errors).toEqual(["A request can have at most 10 photos."]);

    expect(await db.$count(consultationFiles, eq(consultationFiles.consultationId, draftId))).toBe(MAX_PHOTOS_PER_REQUEST);
    expect((await env.FILES.list({ prefix: `consultations/${draftId}/` })).objects).toHaveLength(MAX_PHOTOS_PER_REQUEST);
  });

  it("cannot add photos to a request once it is submitted", async () => {
    const { visitor } = await patientVisitor();
    const first = await visitor.postMultipart("/patient/new-consultation/photos", uploadForm(null, "first.png"));
    const { draftId } = (await first.json()) as { draftId: string };
    await visitor.post("/patient/new-consultation?step=2", { intent: "submit", draftId, ...INTAKE_FORM, chiefComplaint: "Rash" });
    const late = await visitor.postMultipart("/patient/new-consultation/photos", uploadForm(draftId, "late.png"));
    expect(late.status).toBe(404);
    expect(await db.$count(consultationFiles, eq(consultationFiles.consultationId, draftId))).toBe(1);
  });
});

describe("racing submits of one form", () => {
  it("make one request without photos, and every answer leads to it", async () => {
    const { visitor, userId } = await patientVisitor();
    const form = { intent: "submit", submissionKey: crypto.randomUUID(), ...INTAKE_FORM, chiefComplaint: "Itchy rash", priority: "normal" };
    const answers = await Promise.all(Array.from({ length: 5 }, () => visitor.post("/patient/new-consultation?step=2", form)));
    const created = await db.select().from(consultations).where(eq(consultations.patientId, userId));
    expect(created).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe(`/patient/new-consultation?step=3&id=${created[0]!.id}`);
    }
    // Created as a move: its audit entry was written with it, once however many submits raced.
    const submitted = and(eq(auditLog.action, "consultation.submitted"), eq(auditLog.targetId, created[0]!.id));
    expect(await db.select({ actorId: auditLog.actorId }).from(auditLog).where(submitted)).toEqual([{ actorId: userId }]);
    // A new form (a new key) is a new request.
    await visitor.post("/patient/new-consultation?step=2", { ...form, submissionKey: crypto.randomUUID() });
    expect(await db.$count(consultations, eq(consultations.patientId, userId))).toBe(2);
  });

  it("move a draft with photos once, and every answer leads to it", async () => {
    const { visitor, userId } = await patientVisitor();
    const first = await visitor.postMultipart("/patient/new-consultation/photos", uploadForm(null, "first.png"));
    const { draftId } = (await first.json()) as { draftId: string };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        visitor.post("/patient/new-consultation?step=2", { intent: "submit", draftId, ...INTAKE_FORM, chiefComplaint: "Rash" }),
      ),
    );
    const rows = await db.select().from(consultations).where(eq(consultations.patientId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: draftId, status: "pending" });
    for (const answer of answers) expect(answer.headers.get("Location")).toBe(`/patient/new-consultation?step=3&id=${draftId}`);
    const submitted = and(eq(auditLog.action, "consultation.submitted"), eq(auditLog.targetId, draftId));
    expect(await db.$count(auditLog, submitted)).toBe(1);
  });

  it("the form carries a fresh key each time it is shown", async () => {
    const { visitor } = await patientVisitor();
    const keyOf = async () =>
      /name="submissionKey" value="([^"]+)"/.exec(await (await visitor.get("/patient/new-consultation?step=2")).text())?.[1];
    const [one, two] = [await keyOf(), await keyOf()];
    expect(one).toMatch(/^[0-9a-f-]{36}$/);
    expect(two).not.toBe(one);
  });
});

describe("racing account forms", () => {
  it("cannot create more sign-ups from one client than its limit allows", async () => {
    const client = { "CF-Connecting-IP": `192.0.2.${Math.floor(Math.random() * 200) + 1}` };
    const emails = Array.from({ length: 10 }, () => uniqueEmail("racer"));
    const answers = await Promise.all(emails.map((email) => new Visitor().post("/register", registrationForm(email), client)));
    expect(answers.filter((answer) => answer.status === 302).length).toBe(RATE_LIMITS.signUpsPerClient.maxAttempts);
    expect(answers.filter((answer) => answer.status === 429).length).toBe(10 - RATE_LIMITS.signUpsPerClient.maxAttempts);
  });

  it("cannot send more reset mails to one address than its limit allows", async () => {
    const { email } = await registeredPatient();
    const before = (await emailsTo(email)).length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => new Visitor().post("/forgot-password", { email })));
    expect(answers.filter((answer) => answer.status === 200).length).toBe(RATE_LIMITS.resetRequestsPerAccount.maxAttempts);
    await vi.waitFor(async () => expect((await emailsTo(email)).length - before).toBe(RATE_LIMITS.resetRequestsPerAccount.maxAttempts));
  });

  it("cannot flood an address's owner with 'someone signed up with your email' notices", async () => {
    const { email } = await registeredPatient();
    await lastEmailTo(email);
    await Promise.all(Array.from({ length: 4 }, () => new Visitor().post("/register", registrationForm(email))));
    await vi.waitFor(async () =>
      expect((await emailsTo(email)).filter((mail) => mail.subject.startsWith("Someone tried to sign up"))).toHaveLength(1),
    );
    await markerMailArrives(email);
    expect((await emailsTo(email)).filter((mail) => mail.subject.startsWith("Someone tried to sign up"))).toHaveLength(1);
  });
});
