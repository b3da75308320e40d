import type { AppLoadContext } from "@remix-run/cloudflare";
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { auditLog, mailOutbox, passwordCredentials, profiles, sessions, userRoles, users } from "~/db/schema";
import { INVITE_LINK_LIFETIME_MS, PASSWORD_RESET_LINK_LIFETIME_MS } from "~/domain/constants";
import { setDoctorStatus } from "~/server/admin/doctor-status.server";
import { sendAccountLink } from "~/server/auth/account-links.server";
import { loadConfig } from "~/server/env.server";
import { sendMail } from "~/server/mail/mailer.server";
import { requireStandIns } from "~/server/stand-ins.server";

import { createOneTimeLink, GOOD_PASSWORD, lastEmailTo, registeredPatient, registrationForm, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, serverContext, sessionCookieFor, signedIn } from "./fixtures";
import { signInWithGoogle } from "./google-flow";

const sessionOnly = (cookie: string) => new Visitor(cookie);

describe("the sign-in gate (/auth-callback)", () => {
  it("sends each role to its place", async () => {
    const cases: Array<[Awaited<ReturnType<typeof signedIn>>, string]> = [
      [await signedIn("doctor"), "/doctor/dashboard"],
      [await signedIn("admin"), "/admin/dashboard"],
      [await signedIn("patient"), "/patient/dashboard"],
    ];
    for (const [user, expected] of cases) {
      const response = await sessionOnly(user.cookie).get("/auth-callback");
      expect(response.headers.get("Location")).toBe(expected);
    }
  });

  it("signs an inactive doctor out and shows Account Inactive", async () => {
    const doctor = await signedIn("doctor", { doctorStatus: "inactive" });
    const visitor = sessionOnly(doctor.cookie);
    const response = await visitor.get("/auth-callback");
    expect(response.headers.get("Location")).toBe("/account-issue");
    expect(visitor.hasCookie("__Host-qoda_session")).toBe(false);
    expect(await db.$count(sessions, eq(sessions.userId, doctor.userId))).toBe(0);
  });

  it("sends a patient without both consents to /consent", async () => {
    const patient = await signedIn("patient");
    await db.update(profiles).set({ consentPrivacy: false }).where(eq(profiles.userId, patient.userId));
    expect((await sessionOnly(patient.cookie).get("/auth-callback")).headers.get("Location")).toBe("/consent");
    // And the patient pages wait for it too.
    expect((await sessionOnly(patient.cookie).get("/patient/dashboard")).headers.get("Location")).toBe(
      "/consent?redirect=%2Fpatient%2Fdashboard",
    );
  });

  it("gives a user with no role row the patient role", async () => {
    const userId = await createUser("patient");
    await db.delete(userRoles).where(eq(userRoles.userId, userId));
    const response = await sessionOnly(await sessionCookieFor(userId)).get("/auth-callback");
    expect(response.headers.get("Location")).toBe("/patient/dashboard");
    expect((await db.query.userRoles.findFirst({ where: eq(userRoles.userId, userId) }))?.role).toBe("patient");
  });

  it("sends the anonymous to sign in", async () => {
    expect((await new Visitor().get("/auth-callback")).headers.get("Location")).toBe("/login?redirect=%2Fauth-callback");
  });
});

describe("consent", () => {
  it("is refused by the server until both boxes are ticked, then stored with its time", async () => {
    const patient = await signedIn("patient");
    await db
      .update(profiles)
      .set({ consentTerms: false, consentPrivacy: false, consentTimestamp: null })
      .where(eq(profiles.userId, patient.userId));
    const visitor = sessionOnly(patient.cookie);
    const refused = await visitor.post("/consent", { acceptTerms: "on" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("You must agree to all consent terms to create an account");
    expect((await db.query.profiles.findFirst({ where: eq(profiles.userId, patient.userId) }))?.consentTerms).toBe(false);

    const accepted = await visitor.post("/consent", { acceptTerms: "on", acceptPrivacy: "on" });
    expect(accepted.headers.get("Location")).toBe("/patient/dashboard");
    const profile = await db.query.profiles.findFirst({ where: eq(profiles.userId, patient.userId) });
    expect(profile).toMatchObject({ consentTerms: true, consentPrivacy: true });
    expect(profile?.consentTimestamp).toBeInstanceOf(Date);
  });

  it("is only for patients", async () => {
    const doctor = await signedIn("doctor");
    expect((await sessionOnly(doctor.cookie).get("/consent")).headers.get("Location")).toBe("/access-denied");
  });
});

describe("deactivating a doctor", () => {
  it("ends their sessions at once", async () => {
    const doctor = await signedIn("doctor");
    const visitor = sessionOnly(doctor.cookie);
    expect((await visitor.get("/doctor/dashboard")).status).toBe(200);
    await setDoctorStatus(serverContext, doctor.userId, "inactive", new Date());
    const after = await visitor.get("/doctor/dashboard");
    expect(after.headers.get("Location")).toBe("/login?redirect=%2Fdoctor%2Fdashboard");
  });

  it("turns away an inactive doctor who still holds a session", async () => {
    const doctor = await signedIn("doctor", { doctorStatus: "inactive" });
    expect((await sessionOnly(doctor.cookie).get("/doctor/profile")).headers.get("Location")).toBe("/account-issue");
  });
});

describe("changing the password on the profile page", () => {
  const form = (fields: Record<string, string>) => ({ intent: "change-password", ...fields });

  it("checks the current password and the spec's rules", async () => {
    const { visitor } = await registeredPatient();
    const cases: Array<[Record<string, string>, string]> = [
      [
        { currentPassword: "wrong-one-1", newPassword: "Fresh-Skin-7", confirmPassword: "Fresh-Skin-7" },
        "The current password is incorrect.",
      ],
      [{ currentPassword: GOOD_PASSWORD, newPassword: "Fresh-Skin-7", confirmPassword: "Fresh-Skin-8" }, "New passwords don&#x27;t match!"],
      [{ currentPassword: GOOD_PASSWORD, newPassword: "abc", confirmPassword: "abc" }, "Password must be at least 6 characters long!"],
    ];
    for (const [fields, message] of cases) {
      const response = await visitor.post("/patient/profile", form(fields));
      expect(response.status, message).toBe(400);
      expect(await response.text(), message).toContain(message);
    }
  });

  it("keeps this session, ends the others, and audits the change", async () => {
    const { visitor, email } = await registeredPatient();
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    const otherDevice = sessionOnly(await sessionCookieFor(user!.id));
    const response = await visitor.post(
      "/patient/profile",
      form({ currentPassword: GOOD_PASSWORD, newPassword: "Fresh-Skin-7", confirmPassword: "Fresh-Skin-7" }),
    );
    const { html } = await visitor.follow(response);
    expect(html).toContain("Password Changed");
    expect(html).toContain("Your password has been updated successfully.");
    expect((await visitor.get("/patient/profile")).status).toBe(200);
    expect((await otherDevice.get("/patient/profile")).status).toBe(302);
    expect((await new Visitor().post("/login", { email, password: "Fresh-Skin-7" })).status).toBe(302);
    expect(await db.$count(auditLog, and(eq(auditLog.action, "auth.password_changed"), eq(auditLog.actorId, user!.id)))).toBe(1);
  });
});

describe("forgotten passwords", () => {
  it("email a one-hour, single-use link that ends every session", async () => {
    const { email, visitor } = await registeredPatient();
    const confirmation = await lastEmailTo(email);
    const response = await new Visitor().post("/forgot-password", { email });
    expect(await response.text()).toContain("a reset link is on its way");
    const mail = await lastEmailTo(email, { notId: confirmation!.id });
    expect(mail?.subject).toBe("Reset your Qoda password");
    const path = `${mail!.link!.pathname}${mail!.link!.search}`;
    expect(mail!.link!.pathname).toBe("/reset-password");
    const token = mail!.link!.searchParams.get("token")!;

    expect((await new Visitor().get(path)).status).toBe(200);
    const mismatch = await new Visitor().post(path, { token, password: "New-Skin-9", confirmPassword: "New-Skin-0" });
    expect(await mismatch.text()).toContain("Passwords don&#x27;t match");
    const done = await new Visitor().post(path, { token, password: "New-Skin-9", confirmPassword: "New-Skin-9" });
    expect(done.headers.get("Location")).toBe("/login");
    expect((await visitor.get("/patient/dashboard")).status).toBe(302);
    expect((await new Visitor().post("/login", { email, password: "New-Skin-9" })).status).toBe(302);

    const again = await new Visitor().post(path, { token, password: "Other-Skin-9", confirmPassword: "Other-Skin-9" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link no longer works");
  });

  it("refuse an expired link and answer unknown emails the same way", async () => {
    const userId = await createUser("patient");
    const token = await createOneTimeLink(
      db,
      userId,
      "password_reset",
      PASSWORD_RESET_LINK_LIFETIME_MS,
      new Date(Date.now() - PASSWORD_RESET_LINK_LIFETIME_MS - 1_000),
    );
    const expired = await new Visitor().get(`/reset-password?token=${token}`);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("This link no longer works");
    const unknown = await new Visitor().post("/forgot-password", { email: uniqueEmail("nobody") });
    expect(await unknown.text()).toContain("a reset link is on its way");
  });
});

describe("invite links", () => {
  it("let an admin-created account set its own password once within 72 hours", async () => {
    const userId = await createUser("doctor");
    await db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, userId));
    await db.update(profiles).set({ preferredLanguage: "am" }).where(eq(profiles.userId, userId));
    const email = (await db.query.users.findFirst({ where: eq(users.id, userId) }))!.email;
    const context = { db, config: loadConfig(env) } as unknown as AppLoadContext;
    await sendAccountLink("invite", context, new Request(ORIGIN), userId, new Date());
    const mail = await lastEmailTo(email);
    expect(mail?.subject).toBe("ወደ «ቆዳ» ተጋብዘዋል");
    expect(mail?.textBody).toContain("72");
    expect(mail?.link?.pathname).toBe("/invite");
    const token = mail!.link!.searchParams.get("token")!;
    const invited = new Visitor();
    const done = await invited.post(`/invite?token=${token}`, { token, password: "Doctor-Skin-5", confirmPassword: "Doctor-Skin-5" });
    expect(done.headers.get("Location")).toBe("/login");
    // A first password is "set", not "changed".
    const signInPage = (await invited.follow(done)).html;
    expect(signInPage).toContain("Password set");
    expect(signInPage).not.toContain("Password Changed");
    expect(await db.query.passwordCredentials.findFirst({ where: eq(passwordCredentials.userId, userId) })).toBeDefined();
    expect((await db.query.users.findFirst({ where: eq(users.id, userId) }))?.emailConfirmedAt).toBeInstanceOf(Date);
    expect((await new Visitor().get(`/invite?token=${token}`)).status).toBe(400);

    const stale = await createOneTimeLink(
      db,
      userId,
      "invite",
      INVITE_LINK_LIFETIME_MS,
      new Date(Date.now() - INVITE_LINK_LIFETIME_MS - 1),
    );
    expect((await new Visitor().get(`/invite?token=${stale}`)).status).toBe(400);
    // A reset token is no invite.
    const reset = await createOneTimeLink(db, userId, "password_reset", PASSWORD_RESET_LINK_LIFETIME_MS, new Date());
    expect((await new Visitor().get(`/invite?token=${reset}`)).status).toBe(400);
  });
});

describe("profiles", () => {
  it("edit real data, normalise the phone to +251 and switch the site to the chosen language", async () => {
    const { visitor, email } = await registeredPatient();
    const invalid = await visitor.post("/patient/profile", {
      intent: "update-profile",
      firstName: "Liya",
      lastName: "M",
      phone: "12345",
      preferredLanguage: "en",
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Please enter an Ethiopian phone number starting with +251.");

    const saved = await visitor.post("/patient/profile", {
      intent: "update-profile",
      firstName: "Liya",
      lastName: "Tesfaye",
      phone: "0911 23 45 67",
      preferredLanguage: "am",
    });
    const { html } = await visitor.follow(saved);
    expect(html).toContain('<html lang="am"');
    expect(html).toContain("መገለጫዎ ተቀምጧል");
    const user = await db.query.users.findFirst({ where: eq(users.email, email) });
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) })).toMatchObject({
      lastName: "Tesfaye",
      phone: "+251911234567",
      preferredLanguage: "am",
    });
  });

  it("exist for doctors and admins too, each behind its own role", async () => {
    const doctor = await signedIn("doctor");
    const admin = await signedIn("admin");
    expect((await sessionOnly(doctor.cookie).get("/doctor/profile")).status).toBe(200);
    expect((await sessionOnly(admin.cookie).get("/admin/profile")).status).toBe(200);
    expect((await sessionOnly(doctor.cookie).get("/admin/profile")).headers.get("Location")).toBe("/access-denied");
  });
});

describe("Google sign-in through the local stand-in", () => {
  afterEach(() => vi.restoreAllMocks());

  it("joins an unconfirmed account with the same address only after removing whatever password its creator set", async () => {
    const squatter = new Visitor();
    await squatter.post(
      "/register",
      registrationForm("amina.yusuf@gmail.test", { password: "Squatters-Pass-1", confirmPassword: "Squatters-Pass-1" }),
    );
    const { answer } = await signInWithGoogle("stand-in-amina");
    expect(answer.headers.get("Location")).toBe("/auth-callback");
    const user = await db.query.users.findFirst({ where: eq(users.email, "amina.yusuf@gmail.test") });
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await db.query.passwordCredentials.findFirst({ where: eq(passwordCredentials.userId, user!.id) })).toBeUndefined();
    const attempt = await new Visitor().post("/login", { email: "amina.yusuf@gmail.test", password: "Squatters-Pass-1" });
    expect(attempt.status).toBe(401);
  });

  it("creates a patient from the Google profile who must still give consent", async () => {
    const { visitor, authorize, consentPage, callback, answer } = await signInWithGoogle("stand-in-kebede");
    expect(authorize.pathname).toBe("/dev/google/authorize");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(consentPage.status).toBe(200);
    expect(callback.pathname).toBe("/auth/google/callback");
    expect(answer.headers.get("Location")).toBe("/auth-callback");
    expect((await visitor.get("/auth-callback")).headers.get("Location")).toBe("/consent");

    const user = await db.query.users.findFirst({ where: eq(users.email, "kebede.tola@gmail.test") });
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) })).toMatchObject({
      firstName: "Kebede",
      lastName: "Tola",
      consentTerms: false,
    });

    // A forged callback (state not from our cookie) is refused with a clear message.
    const forged = await new Visitor().get(`/auth/google/callback?code=abc&state=forged`);
    const { html } = await new Visitor().follow(forged);
    expect(forged.headers.get("Location")).toBe("/login");
    expect(html).toContain("Sign in");
  });
});

describe("outside development", () => {
  it("the stand-ins and the outbox do not exist", () => {
    const production = { config: { standInsEnabled: false } } as Parameters<typeof requireStandIns>[0];
    expect(() => requireStandIns(production)).toThrow(Response);
  });

  it("mail goes to the provider in Resend's wire format", async () => {
    const config = { ...loadConfig(env), standInsEnabled: false, MAIL_API_KEY: "re_test_key", MAIL_FROM: "Qoda <no-reply@qoda.et>" };
    const calls: Array<{ url: string; init: RequestInit }> = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      calls.push({ url: String(input), init: init! });
      return Response.json({ id: "re_123" });
    });
    await sendMail(db, config, { to: "someone@example.com", subject: "Hello", text: "Body" });
    vi.restoreAllMocks();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("https://api.resend.com/emails");
    expect(new Headers(calls[0]!.init.headers).get("Authorization")).toBe("Bearer re_test_key");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      from: "Qoda <no-reply@qoda.et>",
      to: ["someone@example.com"],
      subject: "Hello",
      text: "Body",
    });
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.providerMessageId, "re_123"));
    expect(row?.status).toBe("sent");
  });
});
