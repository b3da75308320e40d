// Builders for rows the tests need, written through the app's own drizzle schema into the real D1.
import { env } from "cloudflare:test";

import { consultations, doctors, profiles, userRoles, users } from "~/db/schema";
import type { ConsultationStatus } from "~/domain/consultation-status";
import type { DoctorStatus, Role } from "~/domain/roles";
import { createSession } from "~/server/auth/session.server";
import { createDatabase } from "~/server/db/client.server";
import type { Checkout } from "~/server/payments/payment-provider.server";

export const db = createDatabase(env.DB);
/** What server code that ends sessions needs (D1, and the rooms to close their sockets). */
export const serverContext = { db, cloudflare: { env } };
export const ORIGIN = "https://qoda.test";

/** A checkout of 150 ETB for Abebe, returning and calling back to the app's own origin (as the payment page starts one). */
export const checkoutOf = (txRef: string, changes: Partial<Checkout> = {}): Checkout => ({
  txRef,
  amountSantim: 15_000,
  email: "abebe@example.com",
  firstName: "Abebe",
  lastName: "Kebede",
  callbackUrl: `${ORIGIN}/payments/webhook`,
  returnUrl: `${ORIGIN}/payments/return/${txRef}`,
  ...changes,
});

export async function createUser(role: Role, options: { doctorStatus?: DoctorStatus } = {}) {
  const id = crypto.randomUUID();
  const now = new Date();
  await db.insert(users).values({ id, email: `${role}-${id}@qoda.test`, emailConfirmedAt: now });
  await db.insert(userRoles).values({ userId: id, role });
  await db.insert(profiles).values({ userId: id, firstName: "Test", lastName: role, consentTerms: true, consentPrivacy: true });
  if (role === "doctor") {
    await db.insert(doctors).values({ userId: id, status: options.doctorStatus ?? "active", doctorCode: id.slice(0, 8) });
  }
  return id;
}

/** A signed-in user: the id and the Cookie header that carries their session. */
export async function signedIn(role: Role, options: { doctorStatus?: DoctorStatus; at?: Date } = {}) {
  const userId = await createUser(role, options);
  return { userId, cookie: await sessionCookieFor(userId, options.at) };
}

/** Starts a session for an existing user; returns the Cookie header value. */
export async function sessionCookieFor(userId: string, at = new Date()) {
  const { setCookie } = await createSession(db, userId, at);
  return setCookie.split(";")[0]!;
}

export async function createConsultation(
  patientId: string,
  status: ConsultationStatus,
  extra: Partial<typeof consultations.$inferInsert> = {},
) {
  const [row] = await db
    .insert(consultations)
    .values({ patientId, status, title: "Itchy rash", mainConcern: "Itchy rash on my arm", ...extra })
    .returning();
  return row!;
}

/** The structured intake's required answers, as the details form posts them (app/domain/intake.ts). */
export const INTAKE_FORM = {
  ageYears: "34",
  sex: "female",
  bodyAreas: "left_forearm",
  durationAmount: "3",
  durationUnit: "weeks",
} as const;
