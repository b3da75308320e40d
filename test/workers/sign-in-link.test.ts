// The emailed sign-in link (issue 15, item 11): an owner whose password attempts must wait, because
// someone guessed from their network, gets in by a one-time link to their mailbox instead.
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { auditLog, passwordCredentials, profiles, sessions, users } from "~/db/schema";
import { SIGN_IN_LINK_LIFETIME_MS } from "~/domain/constants";

import {
  createOneTimeLink,
  emailsTo,
  GOOD_PASSWORD,
  lastEmailTo,
  markerMailArrives,
  registeredPatient,
  registrationForm,
  uniqueEmail,
} from "./auth-helpers";
import { Visitor } from "./browser-like";
import { db } from "./fixtures";

const LINK_SUBJECT = "Your Qoda sign-in link";

async function userByEmail(email: string) {
  return (await db.query.users.findFirst({ where: eq(users.email, email) }))!;
}

/** An owner whose new phone shares an address with someone who guessed their password 5 times: the phone must wait. */
async function lockedOutOwner() {
  const { email, visitor } = await registeredPatient();
  await db.delete(sessions).where(eq(sessions.userId, (await userByEmail(email)).id));
  const phone = new Visitor();
  const shared = { "CF-Connecting-IP": phone.address };
  for (let attempt = 0; attempt < 5; attempt++) await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` }, shared);
  const refused = await phone.post("/login", { email, password: GOOD_PASSWORD });
  expect(refused.status).toBe(429);
  return { email, phone, refusedHtml: await refused.text(), formerBrowser: visitor };
}

/** Asks for a link for `email` and resolves with the mail that carries it. */
async function signInLinkMail(visitor: Visitor, email: string) {
  const before = (await emailsTo(email)).filter((mail) => mail.subject === LINK_SUBJECT).length;
  const asked = await visitor.post("/sign-in-link", { email });
  expect(asked.status).toBe(200);
  expect(await asked.text()).toContain("If an account uses this email, a sign-in link is on its way. It works once, for 15 minutes.");
  await vi.waitFor(async () => expect((await emailsTo(email)).filter((mail) => mail.subject === LINK_SUBJECT)).toHaveLength(before + 1));
  const mail = (await lastEmailTo(email))!;
  expect(mail.subject).toBe(LINK_SUBJECT);
  return mail;
}

const pathOf = (link: URL) => `${link.pathname}${link.search}`;

describe("a sign-in link", () => {
  it("is offered to an owner who must wait, and signs them in once, from their mailbox", async () => {
    const { email, phone, refusedHtml } = await lockedOutOwner();
    expect(refusedHtml).toMatch(/Too many attempts\. Please wait 1[45] minutes and try again\./);
    const offer = `/sign-in-link?email=${encodeURIComponent(email)}`;
    expect(refusedHtml).toContain(`href="${offer}"`);
    expect(refusedHtml).toContain("Email me a one-time sign-in link instead");
    // The form comes with the address filled in.
    expect(await (await phone.get(offer)).text()).toContain(`value="${email}"`);

    const mail = await signInLinkMail(phone, email);
    expect(mail.textBody).toContain("The link works once, for 15 minutes.");
    expect(mail.textBody).toContain("If it was not you, ignore this email");
    expect(mail.link!.pathname).toBe("/sign-in-link");

    // Opening the link (as a mail scanner would, too) uses nothing up: it asks for a press of the button.
    for (let look = 0; look < 2; look++) {
      const opened = await phone.get(pathOf(mail.link!));
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain("Press the button to sign in on this phone or computer.");
    }
    const signedIn = await phone.post(pathOf(mail.link!), {});
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/auth-callback");
    await phone.follow(signedIn);
    expect((await phone.get("/patient/dashboard")).status).toBe(200);
    const user = await userByEmail(email);
    const [success] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "auth.sign_in.success"), eq(auditLog.actorId, user.id)))
      .orderBy(auditLog.id);
    expect(success).toBeDefined();
    const methods = (await db.select().from(auditLog).where(eq(auditLog.actorId, user.id))).map((entry) => entry.details?.method);
    expect(methods).toContain("email_link");
    expect(await db.$count(auditLog, and(eq(auditLog.action, "auth.sign_in_link_requested"), eq(auditLog.targetId, user.id)))).toBe(1);

    // Used up: a second press, or another browser with the same link, gets nothing.
    for (const visitor of [phone, new Visitor()]) {
      const again = await visitor.post(pathOf(mail.link!), {});
      expect(again.status).toBe(400);
      expect(await again.text()).toContain("This link no longer works");
    }
    // The phone is now the owner's known device: after signing out, their password works there at once.
    await phone.post("/logout", {});
    expect((await phone.post("/login", { email, password: GOOD_PASSWORD })).status).toBe(302);
  });

  it("answers an unknown address exactly as a known one, and mails nobody", async () => {
    const nobody = uniqueEmail("nobody");
    const asked = await new Visitor().post("/sign-in-link", { email: nobody });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("If an account uses this email, a sign-in link is on its way.");
    // A marker mail to a real account, asked for after: once it is in, the unknown address had its turn.
    await markerMailArrives((await registeredPatient()).email);
    expect((await emailsTo(nobody)).filter((mail) => mail.subject === LINK_SUBJECT)).toEqual([]);
  });

  it("refuses forged, expired and other-purpose tokens, and a bad form, with 4xx", async () => {
    const { email } = await registeredPatient();
    const user = await userByEmail(email);
    const expired = await createOneTimeLink(
      db,
      user.id,
      "sign_in",
      SIGN_IN_LINK_LIFETIME_MS,
      new Date(Date.now() - SIGN_IN_LINK_LIFETIME_MS - 60_000),
    );
    const reset = await createOneTimeLink(db, user.id, "password_reset", 60 * 60_000, new Date());
    for (const token of ["forged-token-value", expired, reset, ""]) {
      const visitor = new Visitor();
      expect((await visitor.get(`/sign-in-link?token=${encodeURIComponent(token)}`)).status, token).toBe(400);
      const used = await visitor.post(`/sign-in-link?token=${encodeURIComponent(token)}`, {});
      expect(used.status, token).toBe(400);
      expect(used.headers.get("Set-Cookie") ?? "").not.toContain("qoda_session");
    }
    // The reset link still works for what it is for.
    expect((await new Visitor().get(`/reset-password?token=${encodeURIComponent(reset)}`)).status).toBe(200);
    const badForm = await new Visitor().post("/sign-in-link", { email: "not-an-email" });
    expect(badForm.status).toBe(400);
    expect(await badForm.text()).toContain("Please enter a valid email address.");
  });

  it("goes out at most 3 times in 15 minutes for one account, and says how long to wait", async () => {
    const { email } = await registeredPatient();
    const visitor = new Visitor();
    for (let request = 0; request < 3; request++) expect((await visitor.post("/sign-in-link", { email })).status).toBe(200);
    const fourth = await new Visitor().post("/sign-in-link", { email });
    expect(fourth.status).toBe(429);
    expect(await fourth.text()).toMatch(/Too many attempts\. Please wait 1[45] minutes and try again\./);
  });

  it("is written in the owner's language, and its pages speak the reader's", async () => {
    const { email } = await registeredPatient();
    await db
      .update(profiles)
      .set({ preferredLanguage: "am" })
      .where(eq(profiles.userId, (await userByEmail(email)).id));
    const reader = new Visitor();
    await reader.get("/?lng=am");
    const page = await (await reader.get(`/sign-in-link?email=${encodeURIComponent(email)}`)).text();
    expect(page).toContain("በኢሜይል ማስፈንጠሪያ ይግቡ");
    const asked = await reader.post("/sign-in-link", { email });
    expect(await asked.text()).toContain("የመግቢያ ማስፈንጠሪያ ተልኳል");
    await vi.waitFor(async () => expect((await emailsTo(email)).some((mail) => mail.subject === "የ«ቆዳ» መግቢያ ማስፈንጠሪያዎ")).toBe(true));
    const mail = (await lastEmailTo(email))!;
    expect(mail.textBody).toContain("ማስፈንጠሪያው አንድ ጊዜ ብቻ፣ ለ15 ደቂቃ ያገለግላል።");
    expect(await (await reader.get(pathOf(mail.link!))).text()).toContain("በዚህ ስልክ ወይም ኮምፒውተር ለመግባት ከታች ያለውን ቁልፍ ይጫኑ።");
  });

  it("takes an address back from whoever signed up with it unconfirmed: their password goes, the mailbox's owner is in", async () => {
    const email = uniqueEmail();
    await new Visitor().post("/register", registrationForm(email, { password: "Squatter-Pass-1", confirmPassword: "Squatter-Pass-1" }));
    // The account is created after the answer.
    const user = await vi.waitFor(async () => {
      const created = await db.query.users.findFirst({ where: eq(users.email, email) });
      expect(created).toBeDefined();
      return created!;
    });
    expect(user.emailConfirmedAt).toBeNull();
    const owner = new Visitor();
    const mail = await signInLinkMail(owner, email);
    const signedIn = await owner.post(pathOf(mail.link!), {});
    expect(signedIn.status).toBe(302);
    expect((await userByEmail(email)).emailConfirmedAt).toBeInstanceOf(Date);
    expect(await db.$count(passwordCredentials, eq(passwordCredentials.userId, user.id))).toBe(0);
    expect((await new Visitor().post("/login", { email, password: "Squatter-Pass-1" })).status).toBe(401);
  });
});
