// Accounts an admin makes: doctors and admins. None gets a password from anyone; each is sent a
// one-time invite link (72 hours) to set their own (docs/decisions: accounts). Used by the admin
// dashboard's forms and by approving a doctor's application.
import type { AppLoadContext } from "@remix-run/cloudflare";

import { doctors, profiles, userRoles, users } from "~/db/schema";
import type { Language } from "~/domain/languages";
import { DEFAULT_DOCTOR_SPECIALTY } from "~/domain/roles";
import { auditStatement } from "~/server/audit.server";
import { sendAccountLink } from "~/server/auth/account-links.server";
import { findUserByEmail } from "~/server/auth/accounts.server";

export interface StaffPerson {
  firstName: string;
  lastName: string;
  email: string;
  /** E.164, e.g. +251911234567. */
  phone: string | null;
  /** The language of their invite and of the site for them until they choose. */
  preferredLanguage: Language;
}

export interface DoctorDetails {
  specialty?: string;
  licenceNumber?: string | null;
  /** ISO date, e.g. 2027-06-30. */
  licenceExpiresOn?: string | null;
  licenceFileKey?: string | null;
  experienceYears?: number | null;
}

export type NewStaffAccount = ({ role: "admin" } | { role: "doctor"; doctor: DoctorDetails }) & StaffPerson;

export type StaffAccountOutcome = { ok: true; userId: string } | { ok: false; reason: "emailTaken" };

const isUniqueFailure = (error: unknown, column: string) => {
  const text = String((error as Error).cause ?? error);
  return text.includes("UNIQUE") && text.includes(column);
};

/**
 * Creates the account (user, role, profile and, for a doctor, an active doctor row) in one atomic
 * batch, audits it as `actorId`'s doing, and sends the invite. An address already in use is refused,
 * also when two admins add it at once (the unique index lets one through). `invite` names the email:
 * a plain invite, or the one that tells an applicant their application was approved.
 */
export async function createStaffAccount(
  context: AppLoadContext,
  request: Request,
  account: NewStaffAccount,
  actorId: string,
  now: Date,
  invite: "invite" | "applicationApproved" = "invite",
): Promise<StaffAccountOutcome> {
  const { db } = context;
  const email = account.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) return { ok: false, reason: "emailTaken" };
  for (let attempt = 0; ; attempt++) {
    const userId = crypto.randomUUID();
    try {
      await db.batch([
        db.insert(users).values({ id: userId, email, createdAt: now, updatedAt: now }),
        db.insert(userRoles).values({ userId, role: account.role, createdAt: now }),
        db.insert(profiles).values({
          userId,
          firstName: account.firstName,
          lastName: account.lastName,
          phone: account.phone,
          preferredLanguage: account.preferredLanguage,
          createdAt: now,
          updatedAt: now,
        }),
        ...(account.role === "doctor"
          ? [
              db.insert(doctors).values({
                userId,
                status: "active",
                specialty: account.doctor.specialty || DEFAULT_DOCTOR_SPECIALTY,
                doctorCode: newDoctorCode(account.firstName),
                licenceNumber: account.doctor.licenceNumber ?? null,
                licenceExpiresOn: account.doctor.licenceExpiresOn ?? null,
                licenceFileKey: account.doctor.licenceFileKey ?? null,
                experienceYears: account.doctor.experienceYears ?? null,
                createdAt: now,
                updatedAt: now,
              }),
            ]
          : []),
        auditStatement(db, request, {
          action: "admin.account_created",
          actorId,
          targetType: "user",
          targetId: userId,
          details: { role: account.role },
        }),
      ]);
    } catch (error) {
      if (isUniqueFailure(error, "users.email")) return { ok: false, reason: "emailTaken" };
      // Two doctors drew the same code: draw again.
      if (isUniqueFailure(error, "doctors.doctor_code") && attempt < 3) continue;
      throw error;
    }
    await sendAccountLink(invite, context, request, userId, now);
    return { ok: true, userId };
  }
}

/**
 * The short code patients may quote to ask for a doctor: the first letters of their first name (in
 * Latin letters; "DR" when it has none, as an Amharic name does) and four random digits.
 */
function newDoctorCode(firstName: string): string {
  const letters =
    firstName
      .toUpperCase()
      .replace(/[^A-Z]/g, "")
      .slice(0, 5) || "DR";
  const digits = crypto.getRandomValues(new Uint32Array(1))[0]! % 10_000;
  return `${letters}${String(digits).padStart(4, "0")}`;
}
