// Walks every route in the built app and checks, for each kind of visitor, what they get. A route that
// is not in the table below fails this test: adding a page means deciding here who may open it.
import type { ServerBuild } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";

// @ts-expect-error: the built server exists once `npm test` has built the app.
import * as built from "../../build/server/index.js";
import { Visitor } from "./browser-like";
import { signedIn } from "./fixtures";

type Persona = "anonymous" | "patient" | "anotherPatient" | "activeDoctor" | "inactiveDoctor" | "admin";
/** A status code, or the path a redirect goes to (`LOGIN` means /login?redirect=<this path>). */
type Expectation = number | string;
const LOGIN = "LOGIN";
const PERSONAS: Persona[] = ["anonymous", "patient", "anotherPatient", "activeDoctor", "inactiveDoctor", "admin"];

const everyone = (expected: Expectation): Record<Persona, Expectation> =>
  Object.fromEntries(PERSONAS.map((persona) => [persona, expected])) as Record<Persona, Expectation>;

const onlyFor = (role: "patient" | "doctor" | "admin"): Record<Persona, Expectation> => ({
  anonymous: LOGIN,
  patient: role === "patient" ? 200 : "/access-denied",
  anotherPatient: role === "patient" ? 200 : "/access-denied",
  activeDoctor: role === "doctor" ? 200 : "/access-denied",
  inactiveDoctor: role === "doctor" ? "/account-issue" : "/access-denied",
  admin: role === "admin" ? 200 : "/access-denied",
});

const signedInGoHome = (anonymous: Expectation): Record<Persona, Expectation> => ({
  anonymous,
  patient: "/patient/dashboard",
  anotherPatient: "/patient/dashboard",
  activeDoctor: "/doctor/dashboard",
  inactiveDoctor: "/doctor/dashboard",
  admin: "/admin/dashboard",
});

const MATRIX: Record<string, Record<Persona, Expectation>> = {
  "routes/_index": signedInGoHome(200),
  "routes/terms": everyone(200),
  "routes/privacy": everyone(200),
  "routes/health": everyone(200),
  "routes/sw[.]js": everyone(200),
  "routes/manifest[.]webmanifest": everyone(200),
  "routes/access-denied": everyone(403),
  "routes/account-issue": everyone(200),
  "routes/$": everyone(404),
  "routes/register._index": signedInGoHome(200),
  "routes/login": { ...everyone("/auth-callback"), anonymous: 200 },
  "routes/logout": everyone("/"),
  "routes/auth-callback": { ...signedInGoHome(LOGIN), inactiveDoctor: "/account-issue" },
  "routes/consent": { ...onlyFor("patient"), patient: "/patient/dashboard", anotherPatient: "/patient/dashboard" },
  "routes/auth.confirm": everyone(400),
  "routes/auth.resend": everyone(200),
  "routes/forgot-password": everyone(200),
  "routes/sign-in-link": everyone(200),
  "routes/reset-password": everyone(400),
  "routes/invite": everyone(400),
  "routes/auth.google": everyone("/login"),
  "routes/auth.google.callback": everyone("/login"),
  // Stand-ins and the outbox answer only outside production (a separate test covers that).
  "routes/dev.google.authorize": everyone(400),
  "routes/dev.google.token": everyone(405), // POST only: a GET is told so
  "routes/dev.google.userinfo": everyone(401),
  "routes/dev.outbox": everyone(200),
  "routes/dev.payments._index": everyone(200),
  "routes/dev.telegram.start": everyone(200),
  "routes/dev.telegram.$bot.$method": everyone(405), // the Bot API stand-in: POST only
  // A layout's own URL is its index route's, which goes on to the dashboard.
  "routes/patient": { ...onlyFor("patient"), patient: "/patient/dashboard", anotherPatient: "/patient/dashboard" },
  "routes/patient._index": { ...onlyFor("patient"), patient: "/patient/dashboard", anotherPatient: "/patient/dashboard" },
  "routes/patient.dashboard": onlyFor("patient"),
  "routes/patient.profile": onlyFor("patient"),
  "routes/patient.profile_.telegram": onlyFor("patient"),
  // The patient's own data as a ZIP (privacy.test.ts checks its content is theirs alone).
  "routes/patient.profile_.export": onlyFor("patient"),
  "routes/doctor": { ...onlyFor("doctor"), activeDoctor: "/doctor/dashboard" },
  "routes/doctor._index": { ...onlyFor("doctor"), activeDoctor: "/doctor/dashboard" },
  "routes/doctor.dashboard": onlyFor("doctor"),
  "routes/doctor.profile": onlyFor("doctor"),
  "routes/doctor.profile_.payout": onlyFor("doctor"),
  "routes/doctor.profile_.telegram": onlyFor("doctor"),
  "routes/doctor.profile_.card": onlyFor("doctor"),
  // The doctor's own picture: the sample doctor has none.
  "routes/doctor.profile_.picture": { ...onlyFor("doctor"), activeDoctor: 404 },
  "routes/admin": { ...onlyFor("admin"), admin: "/admin/dashboard" },
  "routes/admin._index": { ...onlyFor("admin"), admin: "/admin/dashboard" },
  "routes/consultations": {
    ...signedInGoHome(LOGIN),
    patient: "/patient/consultations",
    anotherPatient: "/patient/consultations",
    activeDoctor: "/doctor/consultations",
    inactiveDoctor: "/doctor/consultations",
  },
  "routes/files.$fileId": { ...everyone(404), anonymous: LOGIN },
  "routes/patient.new-consultation": onlyFor("patient"),
  // POST only (a GET answers 405 to everyone); its POST guard is tested with the wizard.
  "routes/patient.new-consultation.photos": everyone(405),
  "routes/patient.consultations": onlyFor("patient"),
  "routes/patient.consultation.$id": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/patient.payment.$id": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  // A payment's receipt: the sample id is no payment of anyone's.
  "routes/patient.payment.$id_.receipt": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/doctor.consultations": onlyFor("doctor"),
  "routes/doctor.patients": onlyFor("doctor"),
  "routes/doctor.earnings": onlyFor("doctor"),
  // A random id is no consultation: each role's own page answers 404 (their tests cover real ones).
  "routes/doctor.consultation.$id_.summary": { ...onlyFor("doctor"), activeDoctor: 404 },
  "routes/patient.consultation.$id_.summary": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/patient.payment.$id_.doctor-picture": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  // A consultation's timeline, read again by its pages: the sample id is no consultation of anyone's.
  "routes/patient.consultation.$id_.timeline": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/admin.consultations.$id_.summary": { ...onlyFor("admin"), admin: 404 },
  "routes/doctor.earnings[.]csv": onlyFor("doctor"),
  "routes/doctor.consultation.$id": { ...onlyFor("doctor"), activeDoctor: 404 },
  "routes/consultation.$id.accept": { ...everyone(403), anonymous: LOGIN, inactiveDoctor: "/account-issue", activeDoctor: 404 },
  "routes/patient.feedback.$id": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/doctor.thank-you": onlyFor("doctor"),
  "routes/notifications": { ...everyone(200), anonymous: LOGIN, inactiveDoctor: "/account-issue", admin: "/access-denied" },
  // The provider's webhook: POST only, signed; a GET is no request of the provider's.
  "routes/payments.webhook": everyone(405),
  "routes/telegram.webhook": everyone(405),
  "routes/payments.return.$txRef": { ...onlyFor("patient"), patient: 404, anotherPatient: 404 },
  "routes/dev.payments.checkout.$txRef": everyone(404),
  // POST only (a GET answers 405 to everyone); its POST guard is tested with the chat.
  "routes/consultation.$id.chat-image": everyone(405),
  "routes/admin.dashboard": onlyFor("admin"),
  "routes/admin.profile": onlyFor("admin"),
  "routes/admin.doctors._index": onlyFor("admin"),
  "routes/admin.patients": onlyFor("admin"),
  // A random id is no doctor: admins get 404, everyone else never learns that much.
  "routes/admin.doctors.$id": { ...onlyFor("admin"), admin: 404 },
  "routes/admin.doctors.$id_.picture": { ...onlyFor("admin"), admin: 404 },
  "routes/admin.doctors.$id_.licence": { ...onlyFor("admin"), admin: 404 },
  "routes/admin.overview": onlyFor("admin"),
  "routes/admin.feedbacks": onlyFor("admin"),
  "routes/admin.audit": onlyFor("admin"),
  "routes/admin.payments": onlyFor("admin"),
  "routes/admin.finance.disputes": onlyFor("admin"),
  "routes/admin.finance.reconciliation": onlyFor("admin"),
  "routes/admin.finance._index": onlyFor("admin"),
  "routes/admin.finance.journal[.]csv": onlyFor("admin"),
  // A random id: the admin is told it does not exist (an existing one asks for a reason first: admin-records.test.ts).
  "routes/admin.consultations.$id": { ...onlyFor("admin"), admin: 404 },
  "routes/register.doctor": everyone(200),
  "routes/feedback": everyone(200),
  "routes/admin.doctor-registrations": onlyFor("admin"),
  // A licence file; the sample id is no application's.
  "routes/admin.doctor-registrations.$id.licence": { ...onlyFor("admin"), admin: 404 },
  "routes/admin.messages": onlyFor("admin"),
  "routes/admin.mail": onlyFor("admin"),
};

const routes = (built as unknown as ServerBuild).routes;

/** The URL path of a route: its ancestors' paths joined, with sample values for parameters. */
function urlPathOf(routeId: string): string {
  const segments: string[] = [];
  for (let route = routes[routeId]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) segments.unshift(route.path);
  }
  const path = `/${segments.join("/")}`.replace(/\/+/g, "/");
  return path.replace(/:[^/]+/g, crypto.randomUUID()).replace(/\*$/, "no-such-page");
}

async function visitors(): Promise<Record<Persona, Visitor>> {
  const cookie = async (...args: Parameters<typeof signedIn>) => (await signedIn(...args)).cookie;
  return {
    anonymous: new Visitor(),
    patient: new Visitor(await cookie("patient")),
    anotherPatient: new Visitor(await cookie("patient")),
    activeDoctor: new Visitor(await cookie("doctor")),
    inactiveDoctor: new Visitor(await cookie("doctor", { doctorStatus: "inactive" })),
    admin: new Visitor(await cookie("admin")),
  };
}

describe("the authorization matrix", () => {
  const routeIds = Object.keys(routes).filter((id) => id !== "root");

  it("has a row for every route of the app", () => {
    expect(
      routeIds.filter((id) => !MATRIX[id]),
      "routes missing from MATRIX",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((id) => !routes[id]),
      "MATRIX rows for routes that no longer exist",
    ).toEqual([]);
  });

  it.each(routeIds)("%s answers each visitor as expected", async (routeId) => {
    const path = urlPathOf(routeId);
    const people = await visitors();
    for (const persona of PERSONAS) {
      const expected = MATRIX[routeId]![persona];
      const response = await people[persona].get(path);
      await response.arrayBuffer();
      const what = `${persona} GET ${path}`;
      if (typeof expected === "number") {
        expect(response.status, what).toBe(expected);
      } else {
        expect(response.status, what).toBeGreaterThanOrEqual(300);
        expect(response.status, what).toBeLessThan(400);
        const location = expected === LOGIN ? `/login?redirect=${encodeURIComponent(path)}` : expected;
        expect(response.headers.get("Location"), what).toBe(location);
      }
    }
  });

  // Actions are guarded like their pages: whoever is turned away from the page is turned away from
  // posting to it, before the form is even read.
  const guardedActions = routeIds.filter((id) => routes[id]!.module.action && MATRIX[id]!.anonymous === LOGIN);

  it.each(guardedActions)("%s refuses posts from everyone its page turns away", async (routeId) => {
    const path = urlPathOf(routeId);
    const people = await visitors();
    for (const persona of PERSONAS) {
      const expected = MATRIX[routeId]![persona];
      if (typeof expected === "number" || !["/access-denied", "/account-issue", LOGIN].includes(expected)) continue;
      const response = await people[persona].post(path, {
        intent: "update-profile",
        firstName: "Mallory",
        lastName: "X",
        preferredLanguage: "en",
      });
      await response.arrayBuffer();
      const location = expected === LOGIN ? `/login?redirect=${encodeURIComponent(path)}` : expected;
      expect(response.headers.get("Location"), `${persona} POST ${path}`).toBe(location);
    }
  });
});
