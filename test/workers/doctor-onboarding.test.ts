// Doctors join: the public application (licence to R2, checked by its bytes), the contact form, and the
// admins' review (approve creates exactly one account and one invite under any race; reject records why
// and tells the applicant), with every admin loader and action closed to everyone else.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, contactMessages, doctorRegistrations, doctors, profiles, users } from "~/db/schema";
import { MAX_LICENCE_BYTES } from "~/domain/constants";
import { MAX_SEARCH_CHARS } from "~/domain/paging";

/** Rows on one page of an admin list. */
const PAGE_SIZE = 50;

import worker from "../../server";
import { emailsTo, GOOD_PASSWORD, lastEmailTo, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createUser, db, signedIn } from "./fixtures";

const PDF = "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"), (c) =>
  c.charCodeAt(0),
);

function applicationForm(email: string, overrides: Record<string, string | File | undefined> = {}) {
  const fields: Record<string, string | File | undefined> = {
    fullName: "Yonas Tadesse Alemu",
    phone: "0911 22 33 44",
    email,
    cityCountry: "Addis Ababa, Ethiopia",
    experienceYears: "7",
    licence: new File([PDF], "licence.pdf", { type: "application/pdf" }),
    ...overrides,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}

const apply = (visitor: Visitor, form: FormData) => visitor.postMultipart("/register/doctor", form);

const registrationsOf = (email: string) => db.select().from(doctorRegistrations).where(eq(doctorRegistrations.email, email));
const licenceCount = async () => (await env.FILES.list({ prefix: "licences/" })).objects.length;
const usersWith = async (email: string) => (await db.select({ n: count() }).from(users).where(eq(users.email, email)))[0]!.n;
async function auditCount(action: string, targetId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
  return row!.n;
}

/** A stored pending application of a new address; returns its row. */
async function pendingApplication(overrides: Record<string, string | File | undefined> = {}, visitor = new Visitor()) {
  const email = uniqueEmail("applicant");
  const response = await apply(visitor, applicationForm(email, overrides));
  expect(response.status).toBe(303);
  return (await registrationsOf(email))[0]!;
}

async function admin() {
  const { userId, cookie } = await signedIn("admin");
  return { userId, visitor: new Visitor(cookie) };
}

const decide = (visitor: Visitor, intent: "approve" | "reject", id: string, extra: Record<string, string> = {}) =>
  visitor.post("/admin/doctor-registrations", { intent, id, ...extra });

describe("the doctor application", () => {
  it("stores the application, lower-cased and cleaned, with its licence in R2, then says so and goes home after 3 s", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail("Applicant").toUpperCase();
    const before = await licenceCount();
    const response = await apply(visitor, applicationForm(email, { fullName: "Yonas\u0000 Tadesse\u202e Alemu" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/register/doctor?submitted");
    expect(response.headers.get("Refresh")).toBeNull();
    const [row] = await registrationsOf(email.toLowerCase());
    expect(row).toMatchObject({
      fullName: "Yonas Tadesse Alemu",
      phone: "+251911223344",
      cityCountry: "Addis Ababa, Ethiopia",
      experienceYears: 7,
      status: "pending",
      language: "en",
      licenceFileName: "licence.pdf",
      licenceContentType: "application/pdf",
      licenceSizeBytes: PDF.length,
      licenceFileKey: `licences/${row!.id}`,
    });
    const object = await env.FILES.get(row!.licenceFileKey);
    expect(await object?.text()).toBe(PDF);
    expect(await licenceCount()).toBe(before + 1);
    expect(await auditCount("registration.submitted", row!.id)).toBe(1);

    const done = await visitor.get("/register/doctor?submitted");
    const html = await done.text();
    expect(html).toContain("Registration Submitted!");
    expect(html).toContain("Return to Home");
    expect(done.headers.get("Refresh")).toBe("3; url=/");
    expect(html).toContain("Returning to the home page in 3 seconds");
  });

  it("accepts a PNG licence and records the language the applicant used", async () => {
    const email = uniqueEmail("amharic");
    const response = await new Visitor().postMultipart(
      "/register/doctor?lng=am",
      applicationForm(email, { licence: new File([PNG], "scan.PDF", { type: "application/pdf" }) }),
    );
    expect(response.status).toBe(303);
    const [row] = await registrationsOf(email);
    expect(row).toMatchObject({ licenceContentType: "image/png", language: "am" });
  });

  it.each([
    [
      "a .pdf that is no PDF",
      { licence: new File(["just some text, not a document"], "licence.pdf", { type: "application/pdf" }) },
      422,
      "must be a PDF, JPG or PNG",
    ],
    ["an empty file", { licence: new File([], "licence.pdf", { type: "application/pdf" }) }, 422, "The chosen licence file is empty."],
    ["no licence", { licence: undefined }, 400, "Please choose your medical licence file."],
    ["a licence sent as text", { licence: "licence.pdf" }, 400, "Please choose your medical licence file."],
    ["a missing name", { fullName: undefined }, 400, "Please fill in all required fields."],
    ["a blank city", { cityCountry: "  \u0007 " }, 400, "Please fill in all required fields."],
    ["a phone that is not Ethiopian", { phone: "+1 555 0100" }, 400, "starting with +251"],
    ["negative experience", { experienceYears: "-1" }, 400, "whole number (0 or more)"],
    ["fractional experience", { experienceYears: "2.5" }, 400, "whole number (0 or more)"],
    ["a bad email", { email: "not-an-address" }, 400, "valid email address"],
    ["a filled honeypot", { website: "http://spam.example" }, 400, "Failed to submit registration. Please try again."],
    // Every field there, one of them wrong: the summary does not claim something is missing.
    ["a name of 10,000 characters", { fullName: "A".repeat(10_000) }, 400, "Please correct the fields marked below."],
  ])("refuses %s with a clear message, keeps the typed values and stores nothing", async (_what, overrides, status, message) => {
    const email = uniqueEmail("refused");
    const before = await licenceCount();
    const fields = overrides as Record<string, string | File | undefined>;
    const response = await apply(new Visitor(), applicationForm(email, fields));
    expect(response.status).toBe(status);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain("please choose your licence file again");
    if ("fullName" in fields) expect(html).toContain('value="Addis Ababa, Ethiopia"');
    else expect(html).toContain('value="Yonas Tadesse Alemu"');
    expect(await registrationsOf(email)).toEqual([]);
    expect(await licenceCount()).toBe(before);
  });

  it("refuses a licence over 10 MB, read or unread, and a forged body, never with a 500", async () => {
    const email = uniqueEmail("big");
    const before = await licenceCount();
    const justOver = new File([new Uint8Array(MAX_LICENCE_BYTES + 1).fill(0x25)], "big.pdf");
    const over = await apply(new Visitor(), applicationForm(email, { licence: justOver }));
    expect(over.status).toBe(413);
    expect(await over.text()).toContain("larger than 10 MB");
    const huge = await new Visitor().fetch("/register/doctor", {
      method: "POST",
      body: new Uint8Array(MAX_LICENCE_BYTES + 512 * 1024),
      headers: { Origin: "https://qoda.test", "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(huge.status).toBe(413);
    const forged = await new Visitor().fetch("/register/doctor", {
      method: "POST",
      body: '--x\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nunterminated',
      headers: { Origin: "https://qoda.test", "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(forged.status).toBe(400);
    expect(await registrationsOf(email)).toEqual([]);
    expect(await licenceCount()).toBe(before);
  });

  it("allows one pending application per address, also when two arrive at once", async () => {
    const email = uniqueEmail("twice");
    const first = await apply(new Visitor(), applicationForm(email));
    expect(first.status).toBe(303);
    const before = await licenceCount();
    const again = await apply(new Visitor(), applicationForm(email.toUpperCase()));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("An application with this email address is already waiting for review.");
    expect(await registrationsOf(email)).toHaveLength(1);
    expect(await licenceCount()).toBe(before);

    const racing = uniqueEmail("racing");
    const answers = await Promise.all([apply(new Visitor(), applicationForm(racing)), apply(new Visitor(), applicationForm(racing))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(await registrationsOf(racing)).toHaveLength(1);
    // The loser's file was removed again: one object for the one application.
    expect(await licenceCount()).toBe(before + 1);
  });

  it("limits applications per client address", async () => {
    const visitor = new Visitor();
    const garbage = () => new File(["nope"], "licence.pdf");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await apply(visitor, applicationForm(uniqueEmail("limited"), { licence: garbage() }))).status).toBe(422);
    }
    const email = uniqueEmail("limited");
    const limited = await apply(visitor, applicationForm(email));
    expect(limited.status).toBe(429);
    const firstWait = await limited.text();
    expect(firstWait).toContain("Too many attempts");
    expect(await registrationsOf(email)).toEqual([]);
    // Trying again while refused does not push the wait further out.
    const tooSoon = await apply(visitor, applicationForm(email));
    expect(tooSoon.status).toBe(429);
    const waitOf = (html: string) => /wait (\d+) minute/.exec(html)?.[1];
    expect(waitOf(await tooSoon.text())).toBe(waitOf(firstWait));
    expect(waitOf(firstWait)).toBeDefined();
    // Another client is not slowed.
    expect((await apply(new Visitor(), applicationForm(email))).status).toBe(303);
  });
});

describe("the contact form", () => {
  const contact = (visitor: Visitor, fields: Record<string, string>) => visitor.post("/feedback", fields);
  const messagesFrom = (email: string) => db.select().from(contactMessages).where(eq(contactMessages.email, email));

  it("stores the message for admins and thanks the sender", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail("contact");
    const response = await contact(visitor, {
      name: "Tsion\u0000 Abebe",
      email: email.toUpperCase(),
      subject: "Hours",
      message: "Line one\r\nLine two\u202e",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/feedback?sent");
    expect(await messagesFrom(email)).toMatchObject([
      { name: "Tsion Abebe", subject: "Hours", message: "Line one\nLine two", readAt: null },
    ]);
    expect(await (await visitor.get("/feedback?sent")).text()).toContain("Message sent!");
  });

  it("refuses missing fields (keeping the rest), a honeypot and too many messages, storing nothing", async () => {
    const email = uniqueEmail("contact");
    const missing = await contact(new Visitor(), { name: "Tsion", email, subject: "Hours", message: "   " });
    expect(missing.status).toBe(400);
    const html = await missing.text();
    expect(html).toContain("Please fill in all required fields.");
    expect(html).toContain('value="Hours"');
    const bot = await contact(new Visitor(), { name: "Bot", email, subject: "Buy", message: "Cheap", website: "x" });
    expect(bot.status).toBe(400);
    const visitor = new Visitor();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await contact(visitor, { name: "Tsion", email: uniqueEmail("many"), subject: "Hi", message: "Hello" })).status).toBe(303);
    }
    const limited = await contact(visitor, { name: "Tsion", email, subject: "Hi", message: "Hello" });
    expect(limited.status).toBe(429);
    expect(await messagesFrom(email)).toEqual([]);
  });
});

describe("admin screens refuse everyone but admins", () => {
  it("on every loader and action here, changing nothing", async () => {
    const registration = await pendingApplication();
    const messageEmail = uniqueEmail("unread");
    await new Visitor().post("/feedback", { name: "Abel", email: messageEmail, subject: "Q", message: "Hello" });
    const [message] = await db.select().from(contactMessages).where(eq(contactMessages.email, messageEmail));
    const mailBefore = (await emailsTo(registration.email)).length;
    const people = {
      anonymous: new Visitor(),
      patient: new Visitor((await signedIn("patient")).cookie),
      doctor: new Visitor((await signedIn("doctor")).cookie),
    };
    const requests: Array<[string, (visitor: Visitor) => Promise<Response>]> = [
      ["/admin/doctor-registrations", (visitor) => visitor.get("/admin/doctor-registrations")],
      ["/admin/messages", (visitor) => visitor.get("/admin/messages")],
      [
        `/admin/doctor-registrations/${registration.id}/licence`,
        (visitor) => visitor.get(`/admin/doctor-registrations/${registration.id}/licence`),
      ],
      ["/admin/doctor-registrations", (visitor) => decide(visitor, "approve", registration.id)],
      ["/admin/doctor-registrations", (visitor) => decide(visitor, "reject", registration.id, { reason: "No" })],
      ["/admin/messages", (visitor) => visitor.post("/admin/messages", { intent: "mark-read", id: message!.id })],
    ];
    for (const [path, send] of requests) {
      for (const [who, visitor] of Object.entries(people)) {
        const response = await send(visitor);
        const expected = who === "anonymous" ? `/login?redirect=${encodeURIComponent(path)}` : "/access-denied";
        expect(response.headers.get("Location"), `${who} ${path}`).toBe(expected);
      }
    }
    expect((await registrationsOf(registration.email))[0]).toMatchObject({ status: "pending", reviewedBy: null });
    expect(await usersWith(registration.email)).toBe(0);
    expect(await emailsTo(registration.email)).toHaveLength(mailBefore);
    expect((await db.select().from(contactMessages).where(eq(contactMessages.id, message!.id)))[0]?.readAt).toBeNull();
    expect(await auditCount("admin.licence_viewed", registration.id)).toBe(0);
  });
});

describe("approving an application", () => {
  it("creates one active Dermatologist account with the invite, once, under a double click", async () => {
    const registration = await pendingApplication();
    const { userId: adminId, visitor } = await admin();
    const first = await decide(visitor, "approve", registration.id);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/admin/doctor-registrations");
    const page = await visitor.follow(first);
    expect(page.html).toContain("Application approved");
    // The toast names the applicant and the email sent to them.
    expect(page.html).toContain(
      `Yonas Tadesse Alemu&#x27;s application has been approved. An invite to set a password was emailed to ${registration.email}.`,
    );
    const second = await visitor.follow(await decide(visitor, "approve", registration.id));
    expect(second.html).toContain("Failed to approve registration.");
    expect(second.html).toContain("Another admin has already decided on this application.");

    const [row] = await registrationsOf(registration.email);
    expect(row).toMatchObject({ status: "approved", reviewedBy: adminId });
    expect(row!.reviewedAt).toBeInstanceOf(Date);
    const [user] = await db.select().from(users).where(eq(users.email, registration.email));
    expect(await usersWith(registration.email)).toBe(1);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) })).toMatchObject({
      firstName: "Yonas",
      lastName: "Tadesse Alemu",
      phone: "+251911223344",
    });
    expect(await db.query.doctors.findFirst({ where: eq(doctors.userId, user!.id) })).toMatchObject({
      status: "active",
      specialty: "Dermatologist",
      experienceYears: 7,
      licenceFileKey: registration.licenceFileKey,
    });
    expect(await emailsTo(registration.email)).toHaveLength(1);
    expect(await auditCount("admin.registration_approved", registration.id)).toBe(1);
  });

  it("gives the new doctor a code from their first name, or DR for a name in Ethiopic letters", async () => {
    const latin = await pendingApplication();
    const ethiopic = await pendingApplication({ fullName: "ሊያ ኃይሌ" });
    const { visitor } = await admin();
    for (const registration of [latin, ethiopic]) await decide(visitor, "approve", registration.id);
    const codeOf = async (email: string) => {
      const [user] = await db.select().from(users).where(eq(users.email, email));
      return (await db.query.doctors.findFirst({ where: eq(doctors.userId, user!.id) }))?.doctorCode;
    };
    expect(await codeOf(latin.email)).toMatch(/^YONAS\d{4}$/);
    expect(await codeOf(ethiopic.email)).toMatch(/^DR\d{4}$/);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.firstName, "ሊያ") })).toMatchObject({ lastName: "ኃይሌ" });
  });

  it("creates exactly one account when two admins approve at once", async () => {
    const registration = await pendingApplication();
    const [one, two] = [await admin(), await admin()];
    const answers = await Promise.all([decide(one.visitor, "approve", registration.id), decide(two.visitor, "approve", registration.id)]);
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    const pages = [await one.visitor.follow(answers[0]!), await two.visitor.follow(answers[1]!)];
    const outcomes = pages.map((page) =>
      page.html.includes("Application approved") ? "approved" : page.html.includes("already decided") ? "refused" : "?",
    );
    expect(outcomes.sort()).toEqual(["approved", "refused"]);
    expect((await registrationsOf(registration.email))[0]?.status).toBe("approved");
    expect(await usersWith(registration.email)).toBe(1);
    expect(await emailsTo(registration.email)).toHaveLength(1);
    expect(await auditCount("admin.registration_approved", registration.id)).toBe(1);
  });

  it("leaves one decision when an approve and a reject race", async () => {
    for (let round = 0; round < 3; round++) {
      const registration = await pendingApplication();
      const [one, two] = [await admin(), await admin()];
      await Promise.all([
        decide(one.visitor, "approve", registration.id),
        decide(two.visitor, "reject", registration.id, { reason: "Race" }),
      ]);
      const [row] = await registrationsOf(registration.email);
      const mail = await emailsTo(registration.email);
      expect(mail).toHaveLength(1);
      if (row!.status === "approved") {
        expect(row).toMatchObject({ reviewedBy: one.userId, rejectionReason: null });
        expect(await usersWith(registration.email)).toBe(1);
        expect(mail[0]!.subject).toBe("Your application to Qoda has been approved");
      } else {
        expect(row).toMatchObject({ status: "rejected", reviewedBy: two.userId, rejectionReason: "Race" });
        expect(await usersWith(registration.email)).toBe(0);
        expect(mail[0]!.subject).toBe("Your application to Qoda");
      }
    }
  });

  it("sends an invite that works once: the new doctor sets a password and signs in to the doctor dashboard", async () => {
    const registration = await pendingApplication();
    const { visitor } = await admin();
    await decide(visitor, "approve", registration.id);
    const invite = await lastEmailTo(registration.email);
    expect(invite?.link?.pathname).toBe("/invite");
    const token = invite!.link!.searchParams.get("token")!;
    const doctor = new Visitor();
    expect((await doctor.get(`/invite?token=${token}`)).status).toBe(200);
    const set = await doctor.post(`/invite?token=${token}`, { token, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
    expect(set.headers.get("Location")).toBe("/login");
    const signIn = await doctor.follow(await doctor.post("/login", { email: registration.email, password: GOOD_PASSWORD }));
    expect(new URL(signIn.url).pathname).toBe("/doctor/dashboard");
    expect((await new Visitor().get(`/invite?token=${token}`)).status).toBe(400);
    const reused = await new Visitor().post(`/invite?token=${token}`, {
      token,
      password: "Another-Skin-9",
      confirmPassword: "Another-Skin-9",
    });
    expect(reused.status).toBe(400);
  });

  it("gives the application back when its address already has an account, and says so", async () => {
    const registration = await pendingApplication();
    const existing = await createUser("patient");
    await db.update(users).set({ email: registration.email }).where(eq(users.id, existing));
    const { visitor } = await admin();
    const page = await visitor.follow(await decide(visitor, "approve", registration.id));
    expect(page.html).toContain("Failed to approve registration.");
    expect(page.html).toContain("An account with this email address already exists");
    expect((await registrationsOf(registration.email))[0]).toMatchObject({ status: "pending", reviewedBy: null, reviewedAt: null });
    expect(await usersWith(registration.email)).toBe(1);
    expect(await emailsTo(registration.email)).toHaveLength(0);
  });

  it("answers forged and stale ids clearly, never with a 500", async () => {
    const { visitor } = await admin();
    expect((await decide(visitor, "approve", "not-a-uuid")).status).toBe(400);
    expect((await visitor.post("/admin/doctor-registrations", { intent: "delete", id: crypto.randomUUID() })).status).toBe(400);
    const stale = await visitor.follow(await decide(visitor, "approve", crypto.randomUUID()));
    expect(stale.html).toContain("This application no longer exists.");
    const staleReject = await visitor.follow(await decide(visitor, "reject", crypto.randomUUID()));
    expect(staleReject.html).toContain("Failed to reject registration.");
    expect((await visitor.get("/admin/doctor-registrations/not-a-uuid/licence")).status).toBe(404);
    expect((await visitor.get(`/admin/doctor-registrations/${crypto.randomUUID()}/licence`)).status).toBe(404);
    expect((await visitor.post("/admin/messages", { intent: "mark-read", id: "x" })).status).toBe(400);
  });
});

describe("rejecting an application", () => {
  it("records the cleaned reason and tells the applicant by email, in the language they applied in", async () => {
    const email = uniqueEmail("rejected");
    expect((await new Visitor().postMultipart("/register/doctor?lng=am", applicationForm(email))).status).toBe(303);
    const [registration] = await registrationsOf(email);
    const { userId: adminId, visitor } = await admin();
    const page = await visitor.follow(
      await decide(visitor, "reject", registration!.id, { reason: "  Licence\u0000 expired\r\nin 2020\u202e " }),
    );
    expect(page.html).toContain("Application rejected");
    expect(page.html).toContain(`has been told by email at ${email}.`);
    const [row] = await registrationsOf(email);
    expect(row).toMatchObject({ status: "rejected", reviewedBy: adminId, rejectionReason: "Licence expired\nin 2020" });
    const mail = await lastEmailTo(email);
    expect(mail?.subject).toBe("ለ«ቆዳ» ያቀረቡት ማመልከቻ");
    expect(mail?.textBody).toContain("Licence expired\nin 2020");
    expect(mail?.textBody).toContain("ውድቅ ተደርጓል");
    expect(await auditCount("admin.registration_rejected", registration!.id)).toBe(1);
    expect(await usersWith(email)).toBe(0);
    // Decided: a second reject changes nothing and sends nothing.
    await decide(visitor, "reject", registration!.id, { reason: "Again" });
    expect((await registrationsOf(email))[0]?.rejectionReason).toBe("Licence expired\nin 2020");
    expect(await emailsTo(email)).toHaveLength(1);
    // The list shows the reason, and no buttons on a decided card.
    const list = await (await visitor.get(`/admin/doctor-registrations?q=${encodeURIComponent(email)}`)).text();
    expect(list).toContain("Licence expired");
    expect(list).not.toContain('value="approve"');
  });

  it("works without the reason, and refuses a reason over the cap without deciding", async () => {
    const registration = await pendingApplication();
    const { visitor } = await admin();
    const tooLong = await visitor.follow(await decide(visitor, "reject", registration.id, { reason: "x".repeat(501) }));
    expect(tooLong.html).toContain("Failed to reject registration.");
    expect((await registrationsOf(registration.email))[0]?.status).toBe("pending");
    await decide(visitor, "reject", registration.id, { reason: "" });
    expect((await registrationsOf(registration.email))[0]).toMatchObject({ status: "rejected", rejectionReason: null });
    expect((await lastEmailTo(registration.email))?.textBody).toContain("No reason was given.");
  });

  it("shows the reject form in place for ?reject=<id>, the way Reject works without script", async () => {
    const registration = await pendingApplication();
    const { visitor } = await admin();
    const html = await (
      await visitor.get(`/admin/doctor-registrations?q=${encodeURIComponent(registration.email)}&reject=${registration.id}`)
    ).text();
    expect(html).toContain('data-testid="reject-form"');
    expect(html).toContain('name="reason"');
    expect((await visitor.get("/admin/doctor-registrations?reject=%00nonsense")).status).toBe(200);
  });
});

describe("the licence file", () => {
  it("opens for admins only, with its proven type, a safe name, nosniff, and an audit entry", async () => {
    const registration = await pendingApplication({ licence: new File([PDF], "my licence\u202e ሰነድ (1).pdf") });
    const { visitor } = await admin();
    const response = await visitor.get(`/admin/doctor-registrations/${registration.id}/licence`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('inline; filename="my_licence_1_.pdf"');
    expect((await registrationsOf(registration.email))[0]?.licenceFileName).toBe("my licence ሰነድ (1).pdf");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(await response.text()).toBe(PDF);
    expect(await auditCount("admin.licence_viewed", registration.id)).toBe(1);
  });
});

describe("the admin lists", () => {
  it("page the applications on the server, search them and filter by status", async () => {
    const marker = `Town${crypto.randomUUID().slice(0, 8)}`;
    for (let index = 0; index <= PAGE_SIZE; index++) {
      await db.insert(doctorRegistrations).values({
        fullName: `Applicant ${index}`,
        phone: "+251911000000",
        email: uniqueEmail("paged"),
        cityCountry: `${marker}, Ethiopia`,
        experienceYears: 1,
        licenceFileKey: `licences/${crypto.randomUUID()}`,
        licenceFileName: "x.pdf",
        licenceContentType: "application/pdf",
        licenceSizeBytes: 10,
      });
    }
    const { visitor: adminVisitor } = await admin();
    const cards = (html: string) => html.split('data-testid="registration-card"').length - 1;
    const first = await (await adminVisitor.get(`/admin/doctor-registrations?q=${marker}`)).text();
    expect(cards(first)).toBe(PAGE_SIZE);
    expect(first).toContain('rel="next"');
    const second = await (await adminVisitor.get(`/admin/doctor-registrations?q=${marker}&page=2`)).text();
    expect(cards(second)).toBe(1);
    const rejected = await (await adminVisitor.get(`/admin/doctor-registrations?q=${marker}&status=rejected`)).text();
    expect(rejected).toContain("No registrations found");
    const long = await adminVisitor.get(`/admin/doctor-registrations?q=${"%25_".repeat(MAX_SEARCH_CHARS)}&page=abc`);
    expect(long.status).toBe(200);
  });

  it("show contact messages newest first, unread ones marked, and mark one read without script", async () => {
    const subject = `Subject ${crypto.randomUUID().slice(0, 8)}`;
    await new Visitor().post("/feedback", { name: "Abel", email: uniqueEmail("older"), subject: `${subject} older`, message: "First" });
    await new Visitor().post("/feedback", { name: "Sara", email: uniqueEmail("newer"), subject: `${subject} newer`, message: "Second" });
    const { userId, visitor } = await admin();
    const html = await (await visitor.get(`/admin/messages?q=${encodeURIComponent(subject)}`)).text();
    expect(html.indexOf(`${subject} newer`)).toBeLessThan(html.indexOf(`${subject} older`));
    expect(html.split('data-read="no"').length - 1).toBe(2);
    const [newer] = await db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.subject, `${subject} newer`));
    const marked = await visitor.follow(
      await visitor.post(`/admin/messages?q=${encodeURIComponent(subject)}`, { intent: "mark-read", id: newer!.id }),
    );
    expect(marked.html).toContain("Marked as read.");
    expect(marked.html.split('data-read="no"').length - 1).toBe(1);
    expect((await db.select().from(contactMessages).where(eq(contactMessages.id, newer!.id)))[0]).toMatchObject({ readBy: userId });
  });
});

describe("an approval cut short", () => {
  it("waits for review again once the job finds it approved without its account, and only then", async () => {
    const adminId = await createUser("admin");
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const application = (email: string, reviewedAt: Date) => ({
      fullName: "Stranded Applicant",
      phone: "+251911000000",
      email,
      cityCountry: "Adama, Ethiopia",
      experienceYears: 2,
      licenceFileKey: `licences/${crypto.randomUUID()}`,
      licenceFileName: "licence.pdf",
      licenceContentType: "application/pdf" as const,
      licenceSizeBytes: 10,
      status: "approved" as const,
      reviewedBy: adminId,
      reviewedAt,
    });
    // Approved eleven minutes ago, and the request died before the account was made.
    const [stranded] = await db
      .insert(doctorRegistrations)
      .values(application(uniqueEmail("stranded"), minutesAgo(11)))
      .returning();
    // Approved a moment ago: the approving request may still be at work.
    const [recent] = await db
      .insert(doctorRegistrations)
      .values(application(uniqueEmail("recent"), minutesAgo(1)))
      .returning();
    // Approved long ago, with its account: done.
    const doneEmail = uniqueEmail("done");
    const [done] = await db
      .insert(doctorRegistrations)
      .values(application(doneEmail, minutesAgo(60)))
      .returning();
    const doctorId = await createUser("doctor");
    await db.update(users).set({ email: doneEmail }).where(eq(users.id, doctorId));

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const statusOf = async (id: string) => (await db.query.doctorRegistrations.findFirst({ where: eq(doctorRegistrations.id, id) }))!;
    expect(await statusOf(stranded!.id)).toMatchObject({ status: "pending", reviewedBy: null, reviewedAt: null });
    expect((await statusOf(recent!.id)).status).toBe("approved");
    expect((await statusOf(done!.id)).status).toBe("approved");
    expect(await auditCount("registration.approval_released", stranded!.id)).toBe(1);
    // The admins see it waiting again, and approving it now makes the account.
    const { visitor } = await admin();
    const waiting = await (await visitor.get(`/admin/doctor-registrations?q=${encodeURIComponent(stranded!.email)}&status=pending`)).text();
    expect(waiting).toContain("Stranded Applicant");
    await decide(visitor, "approve", stranded!.id);
    expect(await usersWith(stranded!.email)).toBe(1);
    expect((await statusOf(stranded!.id)).status).toBe("approved");
  });
});
