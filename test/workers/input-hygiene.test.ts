// Item 4 of the attacker's findings: forged ids answer 4xx (never 500, never echoed into a header),
// typed text is stored and sent to doctors without control characters or bidi overrides, photos
// declaring enormous canvases are refused, and a POST to a page without a form is a quiet 405.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { consultationFiles, consultations, profiles, users } from "~/db/schema";
import { type LobbyEvent } from "~/realtime/protocol";

import { lastEmailTo, registrationForm, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, INTAKE_FORM, sessionCookieFor, signedIn } from "./fixtures";
import { jpegDeclaring, photoFile, PNG_BYTES, pngDeclaring, WEBP_BYTES } from "./photos";
import { openLobbySocket } from "./sockets";

const CRLF_ID = `${crypto.randomUUID()}\r\nSet-Cookie: stolen=1`;
const HUGE_ID = "a".repeat(60_000);

async function patientVisitor() {
  const patient = await signedIn("patient");
  return { ...patient, visitor: new Visitor(patient.cookie) };
}

describe("ids that arrive in forms and URLs", () => {
  it("a CR/LF or 60 KB draftId is refused with a 4xx and never echoed into a header", async () => {
    const { visitor } = await patientVisitor();
    for (const draftId of [CRLF_ID, HUGE_ID]) {
      const removal = await visitor.post("/patient/new-consultation", { intent: "remove-photo", draftId, photoId: crypto.randomUUID() });
      expect(removal.status).toBe(404);
      expect(removal.headers.get("Location")).toBeNull();
      expect(await removal.text()).toContain("This request could not be found.");

      const form = new FormData();
      form.append("draftId", draftId);
      form.append("photo", photoFile(PNG_BYTES, "a.png"));
      const upload = await visitor.postMultipart("/patient/new-consultation/photos", form);
      expect(upload.status).toBe(404);
      expect(await upload.json()).toEqual({ error: "This request could not be found. Please start again." });

      const submit = await visitor.post("/patient/new-consultation?step=2", {
        intent: "submit",
        draftId,
        ...INTAKE_FORM,
        chiefComplaint: "Rash",
      });
      expect(submit.status).toBe(400);
      expect(await submit.text()).toContain("Rash");
    }
  });

  it("malformed ids in page addresses answer 404", async () => {
    const { visitor } = await patientVisitor();
    const doctor = new Visitor((await signedIn("doctor")).cookie);
    const bad = encodeURIComponent(CRLF_ID);
    // Each page is read to its end: a streamed page left unread holds its connection open.
    const statusOf = async (answer: Promise<Response>) => {
      const response = await answer;
      await response.arrayBuffer();
      return response.status;
    };
    expect(await statusOf(visitor.get(`/patient/new-consultation?step=3&id=${bad}`))).toBe(404);
    expect(await statusOf(visitor.get(`/patient/consultation/${bad}`))).toBe(404);
    expect(await statusOf(visitor.get(`/patient/payment/${HUGE_ID.slice(0, 4000)}`))).toBe(404);
    expect(await statusOf(visitor.get(`/files/${bad}`))).toBe(404);
    expect(await statusOf(doctor.get(`/doctor/consultation/${bad}`))).toBe(404);
    expect(await statusOf(doctor.post(`/doctor/consultation/${bad}`, { intent: "accept" }))).toBe(404);
    const link = await doctor.get(`/consultation/${bad}/accept`);
    expect(link.status).toBe(404);
    expect(await link.text()).toContain("Oops!");
    // A draft address that is not an id is simply no draft.
    expect(await statusOf(visitor.get(`/patient/new-consultation?step=1&draft=${bad}`))).toBe(200);
  });

  it("the Google stand-in refuses a state it would have to echo unchecked", async () => {
    const visitor = new Visitor();
    const callback = "https://qoda.test/auth/google/callback";
    const base = {
      response_type: "code",
      client_id: "qoda-local",
      redirect_uri: callback,
      code_challenge: "abc",
      code_challenge_method: "S256",
    };
    for (const state of [HUGE_ID, "abc\r\nSet-Cookie: x=1"]) {
      const page = await visitor.get(`/dev/google/authorize?${new URLSearchParams({ ...base, state })}`);
      expect(page.status).toBe(400);
      const chosen = await visitor.post("/dev/google/authorize", { ...base, state, sub: "stand-in-amina" });
      expect(chosen.status).toBe(400);
      expect(chosen.headers.get("Location")).toBeNull();
    }
    const elsewhere = await visitor.post("/dev/google/authorize", {
      ...base,
      redirect_uri: "https://qoda.test/somewhere-else",
      state: "ok",
      sub: "stand-in-amina",
    });
    expect(elsewhere.status).toBe(400);
  });
});

describe("text people type", () => {
  const DIRTY_NAME = "Li\u202eya\u0000\u001b";

  it("is cleaned before it is stored: names at sign-up and in the profile", async () => {
    const email = uniqueEmail();
    await new Visitor().post("/register", registrationForm(email, { firstName: DIRTY_NAME, lastName: "Bek\r\nele\u2066" }));
    await lastEmailTo(email); // the account exists once its confirmation mail is out
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) })).toMatchObject({
      firstName: "Liya",
      lastName: "Bek ele",
    });

    const { visitor, userId } = await patientVisitor();
    await visitor.post("/patient/profile", {
      intent: "update-profile",
      firstName: "\u202eHana",
      lastName: "Tes\u0000faye",
      phone: "",
      preferredLanguage: "en",
    });
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, userId) })).toMatchObject({
      firstName: "Hana",
      lastName: "Tesfaye",
    });
  });

  it("a name made only of invisible characters is missing, not blank", async () => {
    const response = await new Visitor().post("/register", registrationForm(uniqueEmail(), { firstName: "\u202e\u0000\u2066" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This field is required.");
  });

  it("is cleaned before it is stored and before doctors see it live", async () => {
    const lobby = await openLobbySocket();
    const patientId = await createUser("patient");
    await db.update(profiles).set({ firstName: "Da\u202ewit\u0007" }).where(eq(profiles.userId, patientId));
    const visitor = new Visitor(await sessionCookieFor(patientId));
    const response = await visitor.post("/patient/new-consultation?step=2", {
      intent: "submit",
      ...INTAKE_FORM,
      chiefComplaint: "Rash\u0000 on my\r\narm\u202e evil\u2069",
      knownIllnesses: "Asthma\u001b[2J",
      additionalComments: "None\u0085",
      doctorCode: "\u202e",
    });
    expect(response.status).toBe(302);
    const [stored] = await db.select().from(consultations).where(eq(consultations.patientId, patientId));
    expect(stored).toMatchObject({
      mainConcern: "Rash on my\narm evil",
      title: "Rash on my arm evil",
      medicalHistory: "Asthma[2J",
      additionalComments: "None",
      requestedDoctorCode: null,
    });
    await lobby.until((events) => events.some((event) => event.type === "request_added" && event.request.id === stored!.id));
    const added = lobby.events.find(
      (event): event is Extract<LobbyEvent, { type: "request_added" }> => event.type === "request_added" && event.request.id === stored!.id,
    );
    expect(added?.request).toMatchObject({ title: "Rash on my arm evil", patientFirstName: "Dawit" });
    lobby.close();
  });

  it("written before cleaning existed is cleaned on its way to the lobby", async () => {
    const patientId = await createUser("patient");
    await db.update(profiles).set({ firstName: "Old\u202eName" }).where(eq(profiles.userId, patientId));
    const old = await createConsultation(patientId, "pending", { title: "Old\u0000 title\u2066" });
    const lobby = await openLobbySocket();
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    const queue = lobby.events.find((event) => event.type === "queue");
    const summary = queue?.type === "queue" ? queue.requests.find((request) => request.id === old.id) : undefined;
    expect(summary).toMatchObject({ title: "Old title", patientFirstName: "OldName" });
    lobby.close();
  });
});

describe("photos' pixel sizes", () => {
  it("a photo declaring more than 50 megapixels is refused and nothing is stored", async () => {
    const { visitor } = await patientVisitor();
    const first = await visitor.postMultipart(
      "/patient/new-consultation/photos",
      (() => {
        const form = new FormData();
        form.append("photo", photoFile(WEBP_BYTES, "ok.webp", "image/webp"));
        return form;
      })(),
    );
    const { draftId } = (await first.json()) as { draftId: string };
    for (const [file, name] of [
      [photoFile(pngDeclaring(65535, 65535), "bomb.png"), "bomb.png"],
      [photoFile(jpegDeclaring(10000, 6000), "huge.jpg", "image/jpeg"), "huge.jpg"],
    ] as const) {
      const form = new FormData();
      form.append("draftId", draftId);
      form.append("photo", file);
      const response = await visitor.postMultipart("/patient/new-consultation/photos", form);
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        errors: [`${name} has too many pixels (more than 50 megapixels). Please send a smaller photo.`],
      });
    }
    const rows = await db.select().from(consultationFiles).where(eq(consultationFiles.consultationId, draftId));
    expect(rows).toHaveLength(1);
    expect((await env.FILES.list({ prefix: `consultations/${draftId}/` })).objects).toHaveLength(1);
  });

  it("is refused in Amharic too", async () => {
    const { visitor } = await patientVisitor();
    const form = new FormData();
    form.append("photo", photoFile(pngDeclaring(65535, 65535), "bomb.png"));
    const response = await visitor.postMultipart("/patient/new-consultation/photos?lng=am", form);
    expect(await response.json()).toMatchObject({ errors: ["bomb.png ከ50 ሜጋፒክሰል በላይ ስለሆነ መቀበል አልተቻለም። እባክዎ አነስ ያለ ፎቶ ይላኩ።"] });
  });
});

describe("a POST to a page without a form", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers 405 and logs no error", async () => {
    const errors = vi.spyOn(console, "error");
    const { visitor } = await patientVisitor();
    for (const path of ["/", "/terms", "/privacy", "/health", "/patient/dashboard", "/access-denied"]) {
      const response = await visitor.post(path, { anything: "1" });
      expect(response.status, path).toBe(405);
    }
    // The page says what happened, not that the server failed.
    const page = await (await visitor.post("/patient/dashboard", { anything: "1" })).text();
    expect(page).toContain("This page cannot take that request.");
    expect(page).not.toContain("An unexpected error occurred");
    expect(errors).not.toHaveBeenCalled();
  });
});
