// Accounts: creating patients, checking passwords, confirming emails, consent and roles.
import { and, eq, isNull } from "drizzle-orm";

import { oauthAccounts, passwordCredentials, profiles, userRoles, users } from "~/db/schema";
import type { Language } from "~/domain/languages";
import { endAllSessions, type SessionContext } from "~/server/auth/end-sessions.server";
import { hashPassword, verifyPassword } from "~/server/auth/password.server";
import type { Database } from "~/server/db/client.server";

/** Whether the account still exists (a session can outlive a deleted account by a moment). */
export async function userExists(db: Database, userId: string) {
  return (await db.query.users.findFirst({ columns: { id: true }, where: eq(users.id, userId) })) !== undefined;
}

export async function findUserById(db: Database, userId: string) {
  return db.query.users.findFirst({ columns: { id: true, email: true, emailConfirmedAt: true }, where: eq(users.id, userId) });
}

export async function findUserByEmail(db: Database, email: string) {
  return db.query.users.findFirst({ where: eq(users.email, email.toLowerCase()) });
}

interface NewPatient {
  firstName: string;
  lastName: string;
  email: string;
  /** `hashPassword`'s result; null for accounts that sign in only with Google. */
  passwordHash: string | null;
  consented: boolean;
  emailConfirmed: boolean;
  preferredLanguage: Language;
}

/** Creates a patient in one atomic batch; `null` when the email is already registered. */
export async function createPatient(db: Database, patient: NewPatient, now: Date): Promise<string | null> {
  if (await findUserByEmail(db, patient.email)) return null;
  const userId = crypto.randomUUID();
  const { passwordHash } = patient;
  try {
    await db.batch([
      db.insert(users).values({
        id: userId,
        email: patient.email.toLowerCase(),
        emailConfirmedAt: patient.emailConfirmed ? now : null,
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(userRoles).values({ userId, role: "patient", createdAt: now }),
      db.insert(profiles).values({
        userId,
        firstName: patient.firstName,
        lastName: patient.lastName,
        preferredLanguage: patient.preferredLanguage,
        consentTerms: patient.consented,
        consentPrivacy: patient.consented,
        consentTimestamp: patient.consented ? now : null,
        createdAt: now,
        updatedAt: now,
      }),
      ...(passwordHash ? [db.insert(passwordCredentials).values({ userId, passwordHash, updatedAt: now })] : []),
    ]);
  } catch (error) {
    // Two sign-ups with one address at once: the unique index lets only one through.
    if (String((error as Error).cause ?? error).includes("UNIQUE")) return null;
    throw error;
  }
  return userId;
}

export type CredentialCheck = { ok: true; userId: string; emailConfirmed: boolean } | { ok: false };

/** Checks an email and password; the same answer for an unknown email and a wrong password. */
export async function checkCredentials(db: Database, email: string, password: string): Promise<CredentialCheck> {
  const [row] = await db
    .select({ userId: users.id, emailConfirmedAt: users.emailConfirmedAt, passwordHash: passwordCredentials.passwordHash })
    .from(users)
    .leftJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  if (!row?.passwordHash) {
    // Spend the same time as a real check, so timing does not tell which emails exist.
    await verifyPassword(password, DUMMY_HASH);
    return { ok: false };
  }
  if (!(await verifyPassword(password, row.passwordHash))) return { ok: false };
  return { ok: true, userId: row.userId, emailConfirmed: row.emailConfirmedAt !== null };
}
const DUMMY_HASH = "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function passwordMatches(db: Database, userId: string, password: string) {
  const credential = await db.query.passwordCredentials.findFirst({ where: eq(passwordCredentials.userId, userId) });
  return credential ? verifyPassword(password, credential.passwordHash) : false;
}

export async function setPassword(db: Database, userId: string, password: string, now: Date) {
  const passwordHash = await hashPassword(password);
  await db
    .insert(passwordCredentials)
    .values({ userId, passwordHash, updatedAt: now })
    .onConflictDoUpdate({ target: passwordCredentials.userId, set: { passwordHash, updatedAt: now } });
}

export async function markEmailConfirmed(db: Database, userId: string, now: Date) {
  await db
    .update(users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
}

/** Removes the password and sessions (sockets included) of an account whose email was never confirmed. */
export async function revokeUnprovenCredentials(context: SessionContext, userId: string) {
  await context.db.delete(passwordCredentials).where(eq(passwordCredentials.userId, userId));
  await endAllSessions(context, userId);
}

/** Spec: a user without a role row is a patient; the row is written at the sign-in gate. */
export async function ensureRoleRow(db: Database, userId: string, now: Date) {
  await db.insert(userRoles).values({ userId, role: "patient", createdAt: now }).onConflictDoNothing();
}

export async function recordConsent(db: Database, userId: string, now: Date) {
  await db
    .update(profiles)
    .set({ consentTerms: true, consentPrivacy: true, consentTimestamp: now, updatedAt: now })
    .where(eq(profiles.userId, userId));
}

export async function findUserByOAuthAccount(db: Database, provider: string, providerUserId: string) {
  const row = await db.query.oauthAccounts.findFirst({
    where: and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, providerUserId)),
  });
  return row?.userId ?? null;
}

export async function linkOAuthAccount(db: Database, provider: string, providerUserId: string, userId: string, now: Date) {
  await db.insert(oauthAccounts).values({ provider, providerUserId, userId, createdAt: now }).onConflictDoNothing();
}
