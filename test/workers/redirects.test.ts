// Item 1 of the attacker's findings: no `redirect` a visitor can choose sends a browser off the site
// after signing in, through any route that follows one.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { profiles } from "~/db/schema";
import { setPassword } from "~/server/auth/accounts.server";

import { HOSTILE_REDIRECT_CASES, staysOnSite } from "../support/redirect-corpus";
import { GOOD_PASSWORD } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { signInWithGoogle } from "./google-flow";

async function patientWithPassword() {
  const userId = await createUser("patient");
  await setPassword(db, userId, GOOD_PASSWORD, new Date());
  const user = await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, userId) });
  return { userId, email: user!.email };
}

/** The redirect a single-fetch (`.data`) answer carries in its turbo-stream body. */
function singleFetchRedirect(body: string): string | null {
  const values = JSON.parse(body) as unknown[];
  const keys = values[0] as Record<string, number>;
  const at = keys[`_${values.indexOf("redirect")}`];
  return typeof at === "number" ? (values[at] as string) : null;
}

describe("redirects after sign-in stay on the site", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(HOSTILE_REDIRECT_CASES)("POST /login and /login.data with %s", async (_label, target) => {
    const { email } = await patientWithPassword();
    const page = await new Visitor().post("/login", { email, password: GOOD_PASSWORD, redirect: target });
    expect(page.status).toBe(302);
    expect(staysOnSite(page.headers.get("Location"), ORIGIN)).toBe(true);

    const data = await new Visitor().post("/login.data", { email, password: GOOD_PASSWORD, redirect: target });
    expect(data.status).toBe(202);
    expect(staysOnSite(singleFetchRedirect(await data.text()), ORIGIN)).toBe(true);
  });

  it.each(HOSTILE_REDIRECT_CASES)("GET /login when signed in, and /consent, with %s", async (_label, target) => {
    const { userId } = await patientWithPassword();
    const visitor = new Visitor(await sessionCookieFor(userId));
    const query = `?redirect=${encodeURIComponent(target)}`;
    const signedIn = await visitor.get(`/login${query}`);
    expect(signedIn.status).toBe(302);
    expect(staysOnSite(signedIn.headers.get("Location"), ORIGIN)).toBe(true);

    // Already consented: the consent page sends them on at once.
    const consented = await visitor.get(`/consent${query}`);
    expect(staysOnSite(consented.headers.get("Location"), ORIGIN)).toBe(true);

    // Consenting now: the form's answer sends them on.
    await db.update(profiles).set({ consentTerms: false, consentPrivacy: false }).where(eq(profiles.userId, userId));
    const consenting = await visitor.post(`/consent${query}`, { acceptTerms: "on", acceptPrivacy: "on" });
    expect(consenting.status).toBe(302);
    expect(staysOnSite(consenting.headers.get("Location"), ORIGIN)).toBe(true);
  });

  it.each(HOSTILE_REDIRECT_CASES)("Google sign-in with %s", async (_label, target) => {
    const { answer } = await signInWithGoogle("stand-in-hana", target);
    expect(answer.status).toBe(302);
    expect(staysOnSite(answer.headers.get("Location"), ORIGIN)).toBe(true);
  });
});
