import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { auditLog, profiles, rateLimitHits, sessions, users } from "~/db/schema";
import { ACCOUNT_BACKOFF, accountBackoffDecision } from "~/domain/rate-limits";

import { emailsTo, GOOD_PASSWORD, lastEmailTo, markerMailArrives, registeredPatient, registrationForm, uniqueEmail } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { db } from "./fixtures";

async function userByEmail(email: string) {
  return db.query.users.findFirst({ where: eq(users.email, email) });
}

/** The account's sessions run out (idle), as on a phone left alone; the browser keeps its other cookies. */
async function sessionLapses(email: string) {
  await db.delete(sessions).where(eq(sessions.userId, (await userByEmail(email))!.id));
}

describe("sign-up", () => {
  it("refuses bad input with the spec's messages, keeps what was typed and writes nothing", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail();
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ confirmPassword: "Something-else-1" }, "Passwords don&#x27;t match"],
      [{ acceptPrivacy: undefined }, "You must agree to all consent terms to create an account"],
      [{ password: "abc", confirmPassword: "abc" }, "Password must be at least 6 characters long."],
      [{ password: "password123", confirmPassword: "password123" }, "This password is too common."],
      [{ email: "not-an-email" }, "Please enter a valid email address."],
      [{ firstName: "   " }, "This field is required."],
    ];
    for (const [overrides, message] of cases) {
      const response = await visitor.post("/register", registrationForm(email, overrides));
      const html = await response.text();
      expect(response.status, message).toBe(400);
      expect(html, message).toContain(message);
      expect(html).toContain('value="Mekonnen"');
      expect(html).not.toContain(GOOD_PASSWORD);
    }
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("answers in Amharic for an Amharic reader", async () => {
    const visitor = new Visitor();
    await visitor.get("/?lng=am");
    const response = await visitor.post("/register", registrationForm(uniqueEmail(), { acceptTerms: undefined }));
    const html = await response.text();
    expect(html).toContain("መለያ ለመፍጠር በሁሉም የስምምነት ውሎች መስማማት አለብዎት");
    // Amharic names the document before the verb, and the document's name is its link.
    expect(html).toMatch(/<a href="\/terms"[^>]*>የአገልግሎት ውሎቹን<\/a> አንብቤ ተስማምቻለሁ።/);
    expect(html).toMatch(/<a href="\/privacy"[^>]*>የግላዊነት ፖሊሲውን<\/a> አንብቤ ተስማምቻለሁ።/);
  });

  it("creates an unconfirmed patient with consent, emails a confirmation link and says so", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail();
    const response = await visitor.post("/register", registrationForm(email.toUpperCase()));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const { html } = await visitor.follow(response);
    expect(html).toContain("Success!");
    expect(html).toContain("Please check your email to confirm your account.");

    const user = await userByEmail(email);
    expect(user?.emailConfirmedAt).toBeNull();
    const profile = await db.query.profiles.findFirst({ where: eq(profiles.userId, user!.id) });
    expect(profile).toMatchObject({ firstName: "Liya", lastName: "Mekonnen", consentTerms: true, consentPrivacy: true });
    expect(profile?.consentTimestamp).toBeInstanceOf(Date);
    const mail = await lastEmailTo(email);
    expect(mail?.subject).toBe("Confirm your Qoda account");
    expect(mail?.link?.pathname).toBe("/auth/confirm");
  });

  it("answers a taken address exactly like a new one, and tells the address's owner instead", async () => {
    const { email } = await registeredPatient();
    const confirmation = await lastEmailTo(email);
    const fresh = new Visitor();
    const taken = new Visitor();
    const answers = [
      await fresh.post("/register", registrationForm(uniqueEmail())),
      await taken.post("/register", registrationForm(email, { firstName: "Intruder" })),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    expect(answers.map((answer) => answer.headers.get("Location"))).toEqual(["/", "/"]);
    const pages = [(await fresh.follow(answers[0]!)).html, (await taken.follow(answers[1]!)).html];
    for (const html of pages) expect(html).toContain("Please check your email to confirm your account.");

    const notice = await lastEmailTo(email, { notId: confirmation!.id });
    expect(notice?.subject).toBe("Someone tried to sign up to Qoda with your email");
    expect(notice?.textBody).toContain("Hello Liya,");
    expect(notice?.textBody).toContain("/forgot-password");
    expect(await db.$count(users, eq(users.email, email))).toBe(1);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.firstName, "Intruder") })).toBeUndefined();
  });

  it("cannot be combined with a sign-in to tell whether an address was free", async () => {
    const { email: taken } = await registeredPatient();
    const free = uniqueEmail();
    const answers = [];
    for (const email of [free, taken]) {
      await new Visitor().post("/register", registrationForm(email, { password: "Probe-Pass-77", confirmPassword: "Probe-Pass-77" }));
      await lastEmailTo(email);
      const signIn = await new Visitor().post("/login", { email, password: "Probe-Pass-77" });
      answers.push({
        status: signIn.status,
        message: /<div role="alert"[\s\S]*?<\/div>/.exec(await signIn.text())?.[0].replaceAll(encodeURIComponent(email), "EMAIL"),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(401);
  });

  it("tells the owner in their own language", async () => {
    const { email } = await registeredPatient();
    const owner = await userByEmail(email);
    await db.update(profiles).set({ preferredLanguage: "am" }).where(eq(profiles.userId, owner!.id));
    const confirmation = await lastEmailTo(email);
    await new Visitor().post("/register", registrationForm(email));
    expect((await lastEmailTo(email, { notId: confirmation!.id }))?.subject).toBe("በኢሜይልዎ በ«ቆዳ» ለመመዝገብ ሙከራ ተደርጓል");
  });
});

describe("email confirmation", () => {
  it("is required before the first sign-in, works once, and refuses forged links", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail();
    await visitor.post("/register", registrationForm(email));
    const link = (await lastEmailTo(email))!.link!;
    const early = await visitor.post("/login", { email, password: GOOD_PASSWORD });
    expect(early.status).toBe(401);
    const earlyHtml = await early.text();
    expect(earlyHtml).toContain("If you have just signed up, confirm your email first");
    expect(earlyHtml).toContain(`/auth/resend?email=${encodeURIComponent(email)}`);
    // The link goes out again, for whoever lost the first one.
    expect(await lastEmailTo(email, { notId: (await emailsTo(email))[0]!.id })).not.toBeNull();

    const confirmed = await visitor.get(`${link.pathname}${link.search}`);
    expect(confirmed.headers.get("Location")).toBe("/login");
    expect((await userByEmail(email))?.emailConfirmedAt).toBeInstanceOf(Date);

    const reused = await visitor.get(`${link.pathname}${link.search}`);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("This link no longer works");
    const forged = await visitor.get("/auth/confirm?token=forged-token-value");
    expect(forged.status).toBe(400);
  });

  it("can be sent again, with the same answer for unknown addresses", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail();
    await visitor.post("/register", registrationForm(email));
    const first = (await lastEmailTo(email))!.id;
    const known = await visitor.post("/auth/resend", { email });
    const unknown = await visitor.post("/auth/resend", { email: uniqueEmail("nobody") });
    const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()];
    expect(knownHtml).toContain("a new link is on its way");
    expect(unknownHtml).toContain("a new link is on its way");
    expect(await lastEmailTo(email, { notId: first })).not.toBeNull();
  });
});

describe("sign-in", () => {
  it("starts a server session in an HttpOnly Secure __Host- cookie and goes through the gate", async () => {
    const { visitor, signInResponse, email } = await registeredPatient();
    expect(signInResponse.status).toBe(302);
    expect(signInResponse.headers.get("Location")).toBe("/auth-callback");
    const sessionCookie = signInResponse.headers.getSetCookie().find((cookie) => cookie.startsWith("__Host-qoda_session="))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/Secure/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).toMatch(/Path=\//);
    const { url, html } = await visitor.follow(signInResponse);
    expect(new URL(url).pathname).toBe("/patient/dashboard");
    // The first sign-in welcomes; later ones welcome back.
    expect(html).toContain("Welcome to Qoda, Liya!");
    expect(html).not.toContain("Welcome back");
    expect(html).toContain("You are signed in as a patient.");
    expect(html).toContain("Welcome, Liya!");
    await visitor.post("/logout", {});
    const again = await visitor.post("/login", { email, password: GOOD_PASSWORD });
    expect((await visitor.follow(again)).html).toContain("Welcome back, Liya!");
  });

  it("gives a new session id at every sign-in and ends the previous one", async () => {
    const { visitor, email } = await registeredPatient();
    const before = visitor.cookieHeader();
    await visitor.post("/login", { email, password: GOOD_PASSWORD });
    expect(visitor.cookieHeader()).not.toBe(before);
    const user = await userByEmail(email);
    expect(await db.$count(sessions, eq(sessions.userId, user!.id))).toBe(1);
  });

  it("says the same thing for a wrong password and an unknown email, and audits both", async () => {
    const { email } = await registeredPatient();
    const wrong = await new Visitor().post("/login", { email, password: "Not-the-password-1" });
    const unknown = await new Visitor().post("/login", { email: uniqueEmail("ghost"), password: "Whatever-1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toContain("The email or password is incorrect.");
    expect(await unknown.text()).toContain("The email or password is incorrect.");
    const failures = await db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in.failure"));
    expect(failures.some((entry) => (entry.details as { email?: string }).email === email)).toBe(true);
  });

  it("goes only to paths on this site after signing in", async () => {
    const { email } = await registeredPatient();
    const targets: Array<[string, string]> = [
      ["/patient/profile", "/patient/profile"],
      ["//evil.example/steal", "/auth-callback"],
      ["https://evil.example/", "/auth-callback"],
      ["/\\evil.example", "/auth-callback"],
      ["javascript:alert(1)", "/auth-callback"],
    ];
    for (const [target, expected] of targets) {
      const response = await new Visitor().post("/login", { email, password: GOOD_PASSWORD, redirect: target });
      expect(response.headers.get("Location"), target).toBe(expected);
    }
  });

  it("sends a visitor who is already signed in on to the target", async () => {
    const { visitor } = await registeredPatient();
    const response = await visitor.get("/login?redirect=%2Fpatient%2Fprofile");
    expect(response.headers.get("Location")).toBe("/patient/profile");
  });

  it("stops a client after 5 wrong passwords on an account, while the owner on another client signs in", async () => {
    const { email } = await registeredPatient();
    const guesser = { "CF-Connecting-IP": "10.0.0.1" };
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` }, guesser);
      expect(response.status).toBe(401);
    }
    const blocked = await new Visitor().post("/login", { email, password: GOOD_PASSWORD }, guesser);
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toMatch(/Too many attempts\. Please wait 1[45] minutes and try again\./);

    const owner = await new Visitor().post("/login", { email, password: GOOD_PASSWORD }, { "CF-Connecting-IP": "10.0.9.9" });
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Location")).toBe("/auth-callback");
  });

  it("slows guessing spread over many clients, tells the owner once, and never slows the owner's own device", async () => {
    const { email, visitor: ownersBrowser } = await registeredPatient();
    await sessionLapses(email);
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` });
      expect(response.status).toBe(401);
    }
    // The next attempt from a new client must wait, right password or not, and is told how long.
    const slowed = await new Visitor().post("/login", { email, password: GOOD_PASSWORD });
    expect(slowed.status).toBe(429);
    expect(await slowed.text()).toMatch(/Too many attempts\. Please wait 1 second and try again\./);
    // The browser the owner signed in with before is not slowed.
    const owner = await ownersBrowser.post("/login", { email, password: GOOD_PASSWORD });
    expect(owner.status).toBe(302);

    const notices = async () =>
      (await emailsTo(email)).filter((mail) => mail.subject === "Wrong passwords were tried on your Qoda account");
    await vi.waitFor(async () => expect(await notices()).toHaveLength(1));
    expect((await notices())[0]!.textBody).toContain("We have slowed down further attempts.");
    // Once the wait is over, a further failure is allowed, and the owner is not mailed again.
    // (An attempt during the wait is refused without counting, so trying until one is let through adds one failure.)
    await vi.waitFor(async () => expect((await new Visitor().post("/login", { email, password: "Wrong-again-1" })).status).toBe(401), {
      timeout: 5_000,
      interval: 100,
    });
    await markerMailArrives(email);
    expect(await notices()).toHaveLength(1);
  });

  it("lets the owner's known device in from the very address the guesses came from (a shared network)", async () => {
    const { email, visitor: ownersBrowser } = await registeredPatient();
    await sessionLapses(email);
    const sharedAddress = { "CF-Connecting-IP": ownersBrowser.address };
    for (let attempt = 0; attempt < 6; attempt++)
      await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` }, sharedAddress);
    expect((await new Visitor().post("/login", { email, password: GOOD_PASSWORD }, sharedAddress)).status).toBe(429);
    expect((await ownersBrowser.post("/login", { email, password: GOOD_PASSWORD })).status).toBe(302);
  });

  it("keeps the owner's device theirs after they sign out: guesses from the same network do not lock them out of it", async () => {
    const { email, visitor: ownersPhone } = await registeredPatient();
    expect((await ownersPhone.post("/logout", {})).status).toBe(302);
    const sharedAddress = { "CF-Connecting-IP": ownersPhone.address };
    for (let attempt = 0; attempt < 10; attempt++)
      await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` }, sharedAddress);
    expect((await new Visitor().post("/login", { email, password: GOOD_PASSWORD }, sharedAddress)).status).toBe(429);
    expect((await ownersPhone.post("/login", { email, password: GOOD_PASSWORD })).status).toBe(302);
  });

  it("still counts wrong passwords on a known device, per device: it is no way around the limit", async () => {
    const { email, visitor: ownersPhone } = await registeredPatient();
    await ownersPhone.post("/logout", {});
    for (let attempt = 0; attempt < 10; attempt++) await ownersPhone.post("/login", { email, password: `Wrong-${attempt}-pass` });
    expect((await ownersPhone.post("/login", { email, password: GOOD_PASSWORD })).status).toBe(429);
  });

  it("slows an unknown address exactly like a known one, and mails nobody", async () => {
    const email = uniqueEmail("nobody");
    for (let attempt = 0; attempt < 10; attempt++) await new Visitor().post("/login", { email, password: `Wrong-${attempt}-pass` });
    expect((await new Visitor().post("/login", { email, password: "Anything-1" })).status).toBe(429);
    expect(await emailsTo(email)).toHaveLength(0);
  });

  it("limits failures from one client across accounts", async () => {
    const client = { "CF-Connecting-IP": "192.0.2.77" };
    for (let attempt = 0; attempt < 30; attempt++) {
      await new Visitor().post("/login", { email: uniqueEmail("spray"), password: "Guess-123" }, client);
    }
    const { email } = await registeredPatient();
    const blocked = await new Visitor().post("/login", { email, password: GOOD_PASSWORD }, client);
    expect(blocked.status).toBe(429);
  });
});

describe("sign-out", () => {
  it("ends the session on the server: the old cookie no longer opens anything", async () => {
    const { visitor, email } = await registeredPatient();
    const stolenCookie = visitor.cookieHeader();
    const response = await visitor.post("/logout", {});
    expect(response.headers.get("Location")).toBe("/login");
    const user = await userByEmail(email);
    expect(await db.$count(sessions, eq(sessions.userId, user!.id))).toBe(0);
    const replay = await new Visitor(stolenCookie.split("; ").find((c) => c.startsWith("__Host-qoda_session="))).get("/patient/dashboard");
    expect(replay.status).toBe(302);
    expect(replay.headers.get("Location")).toBe("/login?redirect=%2Fpatient%2Fdashboard");
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "auth.sign_out"), eq(auditLog.actorId, user!.id)));
    expect(audit).toHaveLength(1);
  });

  it("says 'Already signed out' when there was no session", async () => {
    const visitor = new Visitor();
    const { html } = await visitor.follow(await visitor.post("/logout", {}));
    expect(html).toContain("Already signed out");
    expect(html).toContain("No active session found.");
  });

  it("is never done by a GET", async () => {
    const { visitor } = await registeredPatient();
    await visitor.get("/logout");
    expect((await visitor.get("/patient/dashboard")).status).toBe(200);
  });
});

describe("forged and broken requests", () => {
  it("cannot slip past the sign-in limits by guessing in parallel, from one client or from many", async () => {
    const { email } = await registeredPatient();
    const client = { "CF-Connecting-IP": "10.1.1.1" };
    const fromOne = await Promise.all(
      Array.from({ length: 12 }, (_, attempt) => new Visitor().post("/login", { email, password: `Parallel-${attempt}-x` }, client)),
    );
    const oneStatuses = fromOne.map((answer) => answer.status);
    expect(oneStatuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(oneStatuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(7);

    const other = (await registeredPatient()).email;
    const fromMany = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => new Visitor().post("/login", { email: other, password: `Parallel-${attempt}-x` })),
    );
    const manyStatuses = fromMany.map((answer) => answer.status);
    const failed = manyStatuses.filter((status) => status === 401).length;
    expect(failed + manyStatuses.filter((status) => status === 429).length).toBe(30);
    // Ten failures pass; after them the account backs off (1 s, then 2 s, 4 s… after the last failure),
    // so how many more pass depends on how long the burst took. Each failure that passed was recorded
    // when it was judged: each must have been allowed by the backoff over the failures before it.
    const kept = await db
      .select({ hitAt: rateLimitHits.hitAt })
      .from(rateLimitHits)
      .where(eq(rateLimitHits.key, `sign-in:account:${other}`))
      .orderBy(asc(rateLimitHits.id));
    const times = kept.map((hit) => hit.hitAt.getTime());
    expect(times).toHaveLength(failed);
    expect(failed).toBeGreaterThanOrEqual(ACCOUNT_BACKOFF.afterFailures);
    times.forEach((time, index) => expect(accountBackoffDecision(times.slice(0, index), time).allowed, `failure ${index + 1}`).toBe(true));
  });

  it("get a 400, not a 500, for a body that is not a form", async () => {
    const headers = { "Content-Type": "multipart/form-data; boundary=nothing-here" };
    for (const path of ["/login", "/register", "/forgot-password"]) {
      const response = await new Visitor().fetch(path, {
        method: "POST",
        body: "this is not multipart",
        headers: { Origin: "https://qoda.test", ...headers },
      });
      expect(response.status, path).toBe(400);
    }
  });
});

describe("after signing in", () => {
  async function doctorWithPassword(status: "active" | "inactive") {
    const { createUser } = await import("./fixtures");
    const { setPassword } = await import("~/server/auth/accounts.server");
    const userId = await createUser("doctor", { doctorStatus: status });
    await setPassword(db, userId, GOOD_PASSWORD, new Date());
    return (await db.query.users.findFirst({ where: eq(users.id, userId) }))!;
  }

  it("welcomes an active doctor, and gives an inactive one no welcome on the way to Account Inactive", async () => {
    const active = await doctorWithPassword("active");
    const welcomed = new Visitor();
    await welcomed.post("/login", { email: active.email, password: GOOD_PASSWORD });
    expect(await (await welcomed.get("/doctor/dashboard")).text()).toContain("signed in as a doctor");

    const inactive = await doctorWithPassword("inactive");
    const visitor = new Visitor();
    const signIn = await visitor.post("/login", { email: inactive.email, password: GOOD_PASSWORD });
    expect(signIn.headers.get("Location")).toBe("/auth-callback");
    const gate = await visitor.get("/auth-callback");
    expect(gate.headers.get("Location")).toBe("/account-issue");
    const page = await (await visitor.get("/account-issue")).text();
    expect(page).not.toContain("Welcome back");
    expect(page).not.toContain("signed in as a doctor");
  });

  it("keeps the language chosen before signing in, and saves it to the profile", async () => {
    const { email } = await registeredPatient();
    const user = (await userByEmail(email))!;
    expect((await db.query.profiles.findFirst({ where: eq(profiles.userId, user.id) }))?.preferredLanguage).toBe("en");
    const visitor = new Visitor();
    await visitor.get("/login?lng=am");
    const signIn = await visitor.post("/login", { email, password: GOOD_PASSWORD });
    expect(signIn.status).toBe(302);
    expect(await (await visitor.get("/patient/dashboard")).text()).toContain('lang="am"');
    expect((await db.query.profiles.findFirst({ where: eq(profiles.userId, user.id) }))?.preferredLanguage).toBe("am");

    // Without a choice on this browser, the profile's language is the site's.
    const elsewhere = new Visitor();
    await elsewhere.post("/login", { email, password: GOOD_PASSWORD });
    expect(await (await elsewhere.get("/patient/dashboard")).text()).toContain('lang="am"');
  });
});
