// Issue 10, items 3, 5 and 6 (patients): the admin dashboard's counts and staff account forms, the
// doctors' page (search, edit, picture, activate and deactivate) and the patients' page (search,
// filter, paging), with every refusal leaving the database as it was.
import { env } from "cloudflare:test";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, doctors, profiles, sessions, userRoles, users } from "~/db/schema";
import { MAX_LICENCE_BYTES } from "~/domain/constants";
import { MAX_SEARCH_CHARS } from "~/domain/paging";

/** Rows on one page of an admin list. */
const PAGE_SIZE = 50;
import { ROOM_CLOSE_CODES } from "~/realtime/protocol";

import { lastEmailTo, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, sessionCookieFor, signedIn } from "./fixtures";
import { EXE_BYTES, PNG_BYTES } from "./photos";
import { openLobbySocket } from "./sockets";

const PDF_BYTES = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

async function admin() {
  return new Visitor((await signedIn("admin")).cookie);
}

function doctorForm(email: string, overrides: Record<string, string | File | undefined> = {}) {
  const fields: Record<string, string | File | undefined> = {
    intent: "add-doctor",
    firstName: "Tigist",
    lastName: "Haile",
    email,
    phone: "0911 22 33 44",
    specialty: "",
    licenceNumber: "ETH-MED-0042",
    experienceYears: "7",
    licenceExpiresOn: "2028-06-30",
    licenceFile: new File([PDF_BYTES], "licence.pdf", { type: "application/pdf" }),
    ...overrides,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}

const userByEmail = (email: string) => db.query.users.findFirst({ where: eq(users.email, email) });
const countWith = (html: string, testId: string) => html.split(`data-testid="${testId}"`).length - 1;
const figure = (html: string, testId: string) => Number(new RegExp(`data-testid="${testId}">(\\d+)<`).exec(html)?.[1]);

async function licenceObjects() {
  return (await env.FILES.list({ prefix: "licences/" })).objects.length;
}

/** The rows every refusal must leave untouched. */
async function snapshot() {
  return {
    users: await db.$count(users),
    doctors: await db.select().from(doctors).orderBy(doctors.userId),
    profiles: await db.select().from(profiles).orderBy(profiles.userId),
    licences: await licenceObjects(),
  };
}

describe("the admin dashboard", () => {
  it("shows real counts of doctors, admins, consultations and patients", async () => {
    const visitor = await admin();
    const before = await (await visitor.get("/admin/dashboard")).text();
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    await createUser("admin");
    await createConsultation(patientId, "completed", { doctorId });
    // A draft waiting for its photos is no consultation yet.
    await createConsultation(patientId, "awaiting_assets");
    const after = await (await visitor.get("/admin/dashboard")).text();
    for (const testId of ["count-doctors", "count-admins", "count-consultations", "count-patients"]) {
      expect(figure(after, testId), testId).toBe(figure(before, testId) + 1);
    }
    expect(figure(after, "count-doctors")).toBe(await db.$count(userRoles, eq(userRoles.role, "doctor")));
  });

  it("adds a doctor with every detail stored, the licence in R2 and an invite that works once", async () => {
    const visitor = await admin();
    const email = uniqueEmail("doctor");
    const response = await visitor.postMultipart("/admin/dashboard", doctorForm(email.toUpperCase()));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/dashboard?tab=doctors");
    const { html } = await visitor.follow(response);
    expect(html).toContain("Doctor account created successfully!");
    expect(html).toContain(email);

    const user = await userByEmail(email);
    expect(user).toBeDefined();
    expect(await db.query.userRoles.findFirst({ where: eq(userRoles.userId, user!.id) })).toMatchObject({ role: "doctor" });
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) })).toMatchObject({
      firstName: "Tigist",
      lastName: "Haile",
      phone: "+251911223344",
    });
    const doctor = await db.query.doctors.findFirst({ where: eq(doctors.userId, user!.id) });
    expect(doctor).toMatchObject({
      status: "active",
      specialty: "Dermatologist",
      licenceNumber: "ETH-MED-0042",
      licenceExpiresOn: "2028-06-30",
      experienceYears: 7,
    });
    expect(doctor!.doctorCode).toMatch(/^TIGIS\d{4}$/);
    expect(doctor!.licenceFileKey).toMatch(/^licences\/doctor-[0-9a-f-]{36}$/);
    const stored = await env.FILES.get(doctor!.licenceFileKey!);
    expect(stored?.httpMetadata?.contentType).toBe("application/pdf");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(PDF_BYTES);
    expect(await db.$count(auditLog, and(eq(auditLog.action, "admin.account_created"), eq(auditLog.targetId, user!.id)))).toBe(1);

    // The admin opens the licence through the authorized link; the look is audited.
    const licence = await visitor.get(`/admin/doctors/${user!.id}/licence`);
    expect(licence.status).toBe(200);
    expect(licence.headers.get("Content-Type")).toBe("application/pdf");
    expect(licence.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await db.$count(auditLog, and(eq(auditLog.action, "admin.licence_viewed"), eq(auditLog.targetId, user!.id)))).toBe(1);

    // No password from anyone: the invite sets it, once.
    expect(await db.query.passwordCredentials.findFirst({ where: (table, { eq }) => eq(table.userId, user!.id) })).toBeUndefined();
    const mail = await lastEmailTo(email);
    expect(mail?.link?.pathname).toBe("/invite");
    const token = mail!.link!.searchParams.get("token")!;
    const redeemed = await new Visitor().post(`/invite?token=${token}`, {
      token,
      password: "Derm-Doctor-77",
      confirmPassword: "Derm-Doctor-77",
    });
    expect(redeemed.headers.get("Location")).toBe("/login");
    const again = await new Visitor().post(`/invite?token=${token}`, {
      token,
      password: "Other-Pass-88",
      confirmPassword: "Other-Pass-88",
    });
    expect(again.status).toBe(400);
    const signIn = await new Visitor().post("/login", { email, password: "Derm-Doctor-77" });
    expect(signIn.status).toBe(302);
  });

  it("adds an admin, who is invited too", async () => {
    const visitor = await admin();
    const email = uniqueEmail("admin");
    const response = await visitor.post("/admin/dashboard", {
      intent: "add-admin",
      firstName: "Yonas",
      lastName: "Tesfaye",
      email,
      phone: "",
    });
    expect(response.headers.get("Location")).toBe("/admin/dashboard?tab=admins");
    expect((await visitor.follow(response)).html).toContain("Admin account created successfully!");
    const user = await userByEmail(email);
    expect(await db.query.userRoles.findFirst({ where: eq(userRoles.userId, user!.id) })).toMatchObject({ role: "admin" });
    expect(await db.query.doctors.findFirst({ where: eq(doctors.userId, user!.id) })).toBeUndefined();
    expect((await lastEmailTo(email))?.link?.pathname).toBe("/invite");
  });

  it("refuses an email in use with a clear error, keeps what was typed and changes nothing", async () => {
    const visitor = await admin();
    const takenId = await createUser("patient");
    const taken = (await db.query.users.findFirst({ where: eq(users.id, takenId) }))!.email;
    const before = await snapshot();
    const response = await visitor.postMultipart("/admin/dashboard", doctorForm(taken, { firstName: "Kept" }));
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain("Failed to create doctor account");
    expect(html).toContain("This email address is already in use.");
    expect(html).toContain('value="Kept"');
    expect(html).toContain('value="ETH-MED-0042"');
    expect(await snapshot()).toEqual(before);

    const asAdmin = await visitor.post("/admin/dashboard", {
      intent: "add-admin",
      firstName: "A",
      lastName: "B",
      email: taken.toUpperCase(),
    });
    expect(asAdmin.status).toBe(409);
    expect(await asAdmin.text()).toContain("Failed to create admin account");
    expect(await snapshot()).toEqual(before);
  });

  it("creates one account when the form is sent twice at once", async () => {
    const visitor = await admin();
    const email = uniqueEmail("twice");
    const licencesBefore = await licenceObjects();
    const answers = await Promise.all([
      visitor.postMultipart("/admin/dashboard", doctorForm(email)),
      visitor.postMultipart("/admin/dashboard", doctorForm(email)),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409]);
    expect(await db.$count(users, eq(users.email, email))).toBe(1);
    const doctor = await db.query.doctors.findFirst({ where: eq(doctors.userId, (await userByEmail(email))!.id) });
    // The refused twin's licence does not linger in R2.
    expect(await licenceObjects()).toBe(licencesBefore + 1);
    expect(await env.FILES.head(doctor!.licenceFileKey!)).not.toBeNull();
  });

  it("refuses bad input in the reader's language with a 4xx and writes nothing", async () => {
    const visitor = await admin();
    const email = uniqueEmail("bad");
    const before = await snapshot();
    const cases: Array<[Record<string, string | File | undefined>, string]> = [
      [{ licenceFile: new File([EXE_BYTES], "licence.pdf", { type: "application/pdf" }) }, "The licence file must be a PDF, JPG or PNG."],
      [{ licenceFile: new File([new Uint8Array(MAX_LICENCE_BYTES + 1)], "big.pdf") }, "The licence file must be at most 10 MB."],
      [{ licenceFile: undefined }, "Please choose the licence file."],
      [{ experienceYears: "-3" }, "Enter a whole number of years from 0 to 99."],
      [{ experienceYears: "seven" }, "Enter a whole number of years from 0 to 99."],
      [{ licenceExpiresOn: "2028-13-45" }, "Please enter the licence expiry date."],
      [{ licenceExpiresOn: "2001-01-01" }, "This licence has expired."],
      [{ phone: "12345" }, "Please enter an Ethiopian phone number starting with +251."],
      [{ firstName: "\u0000\u0007 " }, "This field is required."],
      [{ email: "not-an-email" }, "Please enter a valid email address."],
      [{ licenceNumber: "x".repeat(500) }, "This is too long."],
    ];
    for (const [overrides, message] of cases) {
      const response = await visitor.postMultipart("/admin/dashboard", doctorForm(email, overrides));
      expect(response.status, message).toBe(400);
      const html = await response.text();
      expect(html, message).toContain(message);
      expect(html, message).toContain("Failed to create doctor account");
    }
    const forged = await visitor.post("/admin/dashboard", { intent: "make-me-root", email });
    expect(forged.status).toBe(400);
    const garbage = await visitor.fetch("/admin/dashboard", {
      method: "POST",
      body: "--x\r\nbroken",
      headers: { Origin: "https://qoda.test", "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(garbage.status).toBe(400);
    expect(await snapshot()).toEqual(before);

    // In Amharic for an Amharic reader.
    await visitor.get("/admin/dashboard?lng=am");
    const amharic = await visitor.postMultipart("/admin/dashboard", doctorForm(email, { experienceYears: "x" }));
    const amharicHtml = await amharic.text();
    expect(amharicHtml).toContain("ከ0 እስከ 99 ያለ ሙሉ የዓመታት ቁጥር ያስገቡ።");
    expect(amharicHtml).toContain("የሐኪም መለያ መፍጠር አልተቻለም");
  });

  it("lists registered users by role, at most a page at a time", async () => {
    const visitor = await admin();
    const doctorId = await createUser("doctor");
    const doctorEmail = (await db.query.users.findFirst({ where: eq(users.id, doctorId) }))!.email;
    const doctorsTab = await (await visitor.get("/admin/dashboard?tab=doctors")).text();
    expect(doctorsTab).toContain(doctorEmail);
    expect(doctorsTab).toContain('data-testid="doctor-status"');
    const patientsTab = await (await visitor.get("/admin/dashboard?tab=patients")).text();
    expect(patientsTab).not.toContain(doctorEmail);
    for (let page = 1; page <= 3; page++) {
      const html = await (await visitor.get(`/admin/dashboard?tab=patients&page=${page}`)).text();
      expect(countWith(html, "registered-user")).toBeLessThanOrEqual(PAGE_SIZE);
    }
  });
});

describe("the doctors page", () => {
  async function namedDoctor(firstName: string) {
    const id = await createUser("doctor");
    await db.update(profiles).set({ firstName, lastName: "Doctor" }).where(eq(profiles.userId, id));
    return id;
  }

  it("searches on the server by name, email, phone, specialty and code", async () => {
    const visitor = await admin();
    const marker = `Zed${crypto.randomUUID().slice(0, 6)}`;
    const id = await namedDoctor(marker);
    await db.update(profiles).set({ phone: "+251922334455" }).where(eq(profiles.userId, id));
    await db
      .update(doctors)
      .set({ specialty: `Paediatric ${marker}`, doctorCode: `Q${marker.toUpperCase()}` })
      .where(eq(doctors.userId, id));
    const email = (await db.query.users.findFirst({ where: eq(users.id, id) }))!.email;
    for (const query of [`${marker} Doctor`, email.toUpperCase(), "0922334455", `paediatric ${marker}`, `q${marker}`]) {
      const html = await (await visitor.get(`/admin/doctors?q=${encodeURIComponent(query)}`)).text();
      expect(html, query).toContain(email);
    }
    const none = await (await visitor.get(`/admin/doctors?q=${"%".repeat(MAX_SEARCH_CHARS * 3)}`)).text();
    expect(countWith(none, "doctor-row")).toBe(0);
  });

  it("edits a doctor's details and audits it; a taken email or a forged picture changes nothing", async () => {
    const visitor = await admin();
    const id = await namedDoctor("Before");
    const otherEmail = (await db.query.users.findFirst({ where: eq(users.id, await createUser("patient")) }))!.email;
    const newEmail = uniqueEmail("edited");
    const edit = (overrides: Record<string, string | File> = {}) => {
      const form = new FormData();
      const fields = {
        intent: "update-doctor",
        firstName: "After",
        lastName: "Edited",
        email: newEmail.toUpperCase(),
        phone: "0933445566",
        specialty: "Dermatologist",
        ...overrides,
      };
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return visitor.postMultipart(`/admin/doctors/${id}`, form);
    };

    const before = await snapshot();
    const taken = await edit({ email: otherEmail });
    expect(taken.status).toBe(409);
    const takenPage = await taken.text();
    expect(takenPage).toContain("This email address is already in use.");
    // Said at the top of the form too, not only beside the field.
    expect(takenPage).toContain("Failed to save the doctor&#x27;s details");
    const forged = await edit({ picture: new File([EXE_BYTES], "me.png", { type: "image/png" }) });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("The picture must be a JPG, PNG or WebP image.");
    expect(await snapshot()).toEqual(before);

    const saved = await edit({ picture: new File([PNG_BYTES], "me.png", { type: "image/png" }) });
    expect(saved.headers.get("Location")).toBe(`/admin/doctors/${id}`);
    expect((await db.query.users.findFirst({ where: eq(users.id, id) }))?.email).toBe(newEmail);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, id) })).toMatchObject({
      firstName: "After",
      lastName: "Edited",
      phone: "+251933445566",
    });
    expect((await db.query.doctors.findFirst({ where: eq(doctors.userId, id) }))?.profilePictureKey).toBe(`doctor-pictures/${id}`);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "admin.doctor_updated"), eq(auditLog.targetId, id)));
    expect(audit?.details).toEqual({ fields: ["firstName", "lastName", "email", "phone", "picture"] });

    const picture = await visitor.get(`/admin/doctors/${id}/picture`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("Content-Type")).toBe("image/png");
    expect((await visitor.get(`/admin/doctors/${id}`)).status).toBe(200);
  });

  it("answers ids that are no doctor's with 404, never 500", async () => {
    const visitor = await admin();
    const patientId = await createUser("patient");
    for (const path of [
      `/admin/doctors/not-a-uuid`,
      `/admin/doctors/${patientId}`,
      `/admin/doctors/${patientId}/picture`,
      `/admin/doctors/x/licence`,
    ]) {
      expect((await visitor.get(path)).status, path).toBe(404);
    }
    const before = await snapshot();
    expect((await visitor.post(`/admin/doctors/${patientId}`, { intent: "deactivate" })).status).toBe(404);
    const doctorId = await createUser("doctor");
    expect((await visitor.post(`/admin/doctors/${doctorId}`, { intent: "promote" })).status).toBe(400);
    expect((await db.query.doctors.findFirst({ where: eq(doctors.userId, doctorId) }))?.status).toBe("active");
    expect((await snapshot()).profiles.length).toBe(before.profiles.length + 1);
  });

  it("deactivation signs the doctor out at once and closes their lobby socket; activating again works", async () => {
    const visitor = await admin();
    const doctor = await signedIn("doctor");
    const lobby = await openLobbySocket(doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    const doctorPage = new Visitor(doctor.cookie);
    expect((await doctorPage.get("/doctor/dashboard")).status).toBe(200);

    const confirm = await (await visitor.get(`/admin/doctors/${doctor.userId}?confirm=deactivate`)).text();
    expect(confirm).toContain("They are signed out everywhere at once");
    const deactivated = await visitor.post(`/admin/doctors/${doctor.userId}`, { intent: "deactivate" });
    expect(deactivated.headers.get("Location")).toBe(`/admin/doctors/${doctor.userId}`);
    expect(await lobby.closed).toBe(ROOM_CLOSE_CODES.sessionEnded);
    expect(await db.$count(sessions, eq(sessions.userId, doctor.userId))).toBe(0);
    expect((await doctorPage.get("/doctor/dashboard")).headers.get("Location")).toBe("/login?redirect=%2Fdoctor%2Fdashboard");
    expect(await db.$count(auditLog, and(eq(auditLog.action, "admin.doctor_deactivated"), eq(auditLog.targetId, doctor.userId)))).toBe(1);

    // A second click changes nothing more.
    await visitor.post(`/admin/doctors/${doctor.userId}`, { intent: "deactivate" });
    expect(await db.$count(auditLog, and(eq(auditLog.action, "admin.doctor_deactivated"), eq(auditLog.targetId, doctor.userId)))).toBe(1);

    await visitor.post(`/admin/doctors/${doctor.userId}`, { intent: "activate" });
    expect((await db.query.doctors.findFirst({ where: eq(doctors.userId, doctor.userId) }))?.status).toBe("active");
    expect((await new Visitor(await sessionCookieFor(doctor.userId)).get("/doctor/dashboard")).status).toBe(200);
    expect(await db.$count(auditLog, and(eq(auditLog.action, "admin.doctor_activated"), eq(auditLog.targetId, doctor.userId)))).toBe(1);
  });
});

describe("the patients page", () => {
  it("searches by name, email or doctor and filters by where consultations stand", async () => {
    const visitor = await admin();
    const marker = `Q${crypto.randomUUID().slice(0, 6)}`;
    const doctorId = await createUser("doctor");
    await db
      .update(profiles)
      .set({ firstName: `Dr${marker}`, lastName: "Kebede" })
      .where(eq(profiles.userId, doctorId));
    const make = async (label: string) => {
      const id = await createUser("patient");
      await db.update(profiles).set({ firstName: label, lastName: marker }).where(eq(profiles.userId, id));
      return { id, email: (await db.query.users.findFirst({ where: eq(users.id, id) }))!.email };
    };
    const active = await make("Active");
    const waiting = await make("Waiting");
    const done = await make("Done");
    const nothing = await make("Nothing");
    await createConsultation(active.id, "in_progress", { doctorId });
    await createConsultation(active.id, "completed", { doctorId });
    await createConsultation(waiting.id, "pending");
    await createConsultation(done.id, "completed", { doctorId });
    await createConsultation(nothing.id, "awaiting_assets");

    const page = async (query: string) => (await visitor.get(`/admin/patients?${query}`)).text();
    const byName = await page(`q=${encodeURIComponent(`waiting ${marker}`)}`);
    expect(byName).toContain(waiting.email);
    expect(countWith(byName, "patient-row")).toBe(1);
    expect(await page(`q=${encodeURIComponent(done.email.toUpperCase())}`)).toContain(done.email);

    const byDoctor = await page(`q=${encodeURIComponent(`dr${marker} kebede`)}`);
    expect(countWith(byDoctor, "patient-row")).toBe(2);
    expect(byDoctor).toContain(active.email);
    expect(byDoctor).toContain(done.email);
    expect(byDoctor).toContain("2 consultations");
    expect(byDoctor).toContain(`Doctor: Dr${marker} Kebede`);

    const expectations: Array<[string, string]> = [
      ["active", active.email],
      ["waiting", waiting.email],
      ["completed", done.email],
      ["none", nothing.email],
    ];
    for (const [filter, email] of expectations) {
      const html = await page(`q=${marker}&filter=${filter}`);
      expect(countWith(html, "patient-row"), filter).toBe(1);
      expect(html, filter).toContain(email);
    }
    // An unknown filter is no filter.
    expect(countWith(await page(`q=${marker}&filter=bogus`), "patient-row")).toBe(4);
  });

  it("never returns more than a page of rows", async () => {
    const visitor = await admin();
    const marker = `P${crypto.randomUUID().slice(0, 6)}`;
    const ids = await Promise.all(Array.from({ length: PAGE_SIZE + 10 }, () => createUser("patient")));
    await db.update(profiles).set({ lastName: marker }).where(like(profiles.lastName, "patient"));
    expect(ids.length).toBe(PAGE_SIZE + 10);
    const first = await (await visitor.get(`/admin/patients?q=${marker}`)).text();
    expect(countWith(first, "patient-row")).toBe(PAGE_SIZE);
    expect(first).toContain('rel="next"');
    const second = await (await visitor.get(`/admin/patients?q=${marker}&page=2`)).text();
    expect(countWith(second, "patient-row")).toBeGreaterThanOrEqual(10);
    expect(countWith(second, "patient-row")).toBeLessThanOrEqual(PAGE_SIZE);
  });
});

describe("who may use the admin pages", () => {
  it("turns away anonymous visitors, patients and doctors, from every loader and action, changing nothing", async () => {
    const doctorId = await createUser("doctor");
    const people = {
      anonymous: new Visitor(),
      patient: new Visitor((await signedIn("patient")).cookie),
      doctor: new Visitor((await signedIn("doctor")).cookie),
    };
    const paths = [
      "/admin/dashboard",
      "/admin/doctors",
      "/admin/patients",
      `/admin/doctors/${doctorId}`,
      `/admin/doctors/${doctorId}/picture`,
      `/admin/doctors/${doctorId}/licence`,
    ];
    const before = await snapshot();
    for (const path of paths) {
      for (const [who, visitor] of Object.entries(people)) {
        const expected = who === "anonymous" ? `/login?redirect=${encodeURIComponent(path)}` : "/access-denied";
        expect((await visitor.get(path)).headers.get("Location"), `${who} GET ${path}`).toBe(expected);
      }
    }
    const posts: Array<[string, FormData | Record<string, string>]> = [
      ["/admin/dashboard", doctorForm(uniqueEmail("intruder"))],
      ["/admin/dashboard", { intent: "add-admin", firstName: "Eve", lastName: "X", email: uniqueEmail("intruder") }],
      [`/admin/doctors/${doctorId}`, { intent: "deactivate" }],
      [`/admin/doctors/${doctorId}`, { intent: "update-doctor", firstName: "Eve", lastName: "X", email: uniqueEmail("x"), specialty: "X" }],
    ];
    for (const [path, body] of posts) {
      for (const [who, visitor] of Object.entries(people)) {
        const response = body instanceof FormData ? await visitor.postMultipart(path, body) : await visitor.post(path, body);
        const expected = who === "anonymous" ? `/login?redirect=${encodeURIComponent(path)}` : "/access-denied";
        expect(response.headers.get("Location"), `${who} POST ${path}`).toBe(expected);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect((await db.query.doctors.findFirst({ where: eq(doctors.userId, doctorId) }))?.status).toBe("active");
  });
});
