// The admin dashboard: the platform's real counts, the registered users by role, and the two forms
// that add staff accounts (a doctor, with their licence; an admin). Each account gets an invite link.
import type { SubmissionResult } from "@conform-to/react";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { desc, eq, isNull, ne, or } from "drizzle-orm";

import { consultations, doctors, profiles, userRoles, users } from "~/db/schema";
import { type PageRequest, toPage } from "~/domain/paging";
import { AddAdminSchema, AddDoctorSchema } from "~/domain/staff-forms";
import { ADD_ADMIN_INTENT, ADD_DOCTOR_INTENT, type UserTab } from "~/domain/staff-intents";
import { parseForm } from "~/forms";
import type { TextKey } from "~/i18n";
import { detectLanguage } from "~/i18n.server";
import { createStaffAccount, type DoctorDetails, type NewStaffAccount, type StaffPerson } from "~/server/admin/staff-accounts.server";
import { storeLicenceFile } from "~/server/admin/staff-files.server";
import type { SessionUser } from "~/server/auth/session.server";
import type { Database } from "~/server/db/client.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";
import type { StaffFormAnswer } from "~/staff-form-answer";

/** Real figures from D1. A user without a role row counts as a patient, as everywhere else. */
export async function platformCounts(db: Database) {
  const [everyone, doctorCount, adminCount, consultationCount] = await Promise.all([
    db.$count(users),
    db.$count(userRoles, eq(userRoles.role, "doctor")),
    db.$count(userRoles, eq(userRoles.role, "admin")),
    // Drafts still waiting for their photos are no consultation yet.
    db.$count(consultations, ne(consultations.status, "awaiting_assets")),
  ]);
  return { doctors: doctorCount, admins: adminCount, consultations: consultationCount, patients: everyone - doctorCount - adminCount };
}

const TAB_ROLE = { doctors: "doctor", admins: "admin" } as const;

/** One page of the registered users of a role, newest first. */
export async function registeredUsers(db: Database, tab: UserTab, page: PageRequest) {
  const roleCondition = tab === "patients" ? or(isNull(userRoles.role), eq(userRoles.role, "patient")) : eq(userRoles.role, TAB_ROLE[tab]);
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      phone: profiles.phone,
      joinedAt: users.createdAt,
      closedAt: users.closedAt,
      doctorStatus: doctors.status,
    })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(doctors, eq(doctors.userId, users.id))
    .where(roleCondition)
    .orderBy(desc(users.createdAt), users.id)
    .limit(page.limit)
    .offset(page.offset);
  return toPage(
    rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() })),
    page,
  );
}

type Intent = typeof ADD_DOCTOR_INTENT | typeof ADD_ADMIN_INTENT;

/** What the dashboard's action answers when it made no account: the form's errors, what failed and why. */
function refused(intent: Intent, result: SubmissionResult<string[]>, status: number, reason: TextKey = "admin.accounts.checkForm") {
  return data({ intent, result, failure: FAILED[intent], reason } satisfies StaffFormAnswer, { status });
}

const FAILED: Record<Intent, TextKey> = {
  [ADD_DOCTOR_INTENT]: "admin.accounts.doctorFailed",
  [ADD_ADMIN_INTENT]: "admin.accounts.adminFailed",
};

/**
 * Adds a doctor or an admin from the dashboard's forms. Bad input is answered with the form's errors
 * (400), an address in use with a clear error (409); either way nothing is written and the licence
 * file, if one was stored first, is removed again.
 */
export async function handleStaffAccountAction(context: AppLoadContext, request: Request, admin: SessionUser) {
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== ADD_DOCTOR_INTENT && intent !== ADD_ADMIN_INTENT) throw new Response("Bad Request", { status: 400 });
  const submission = intent === ADD_DOCTOR_INTENT ? parseForm(formData, AddDoctorSchema) : parseForm(formData, AddAdminSchema);
  if (submission.status !== "success") return refused(intent, submission.reply(), 400);

  const value = submission.value;
  const bucket = context.cloudflare.env.FILES;
  const language = await detectLanguage(request);
  const person: StaffPerson = {
    firstName: value.firstName,
    lastName: value.lastName,
    email: value.email,
    phone: value.phone,
    // The invite speaks the language the admin works in; the doctor may change it on their profile.
    preferredLanguage: language,
  };
  let account: NewStaffAccount = { role: "admin", ...person };
  let licenceKey: string | null = null;
  if (value.intent === ADD_DOCTOR_INTENT) {
    const stored = await storeLicenceFile(bucket, value.licenceFile);
    if (!stored.ok) {
      const fieldErrors = { licenceFile: [`admin.doctors.errors.${stored.refusal}`] };
      return refused(intent, submission.reply({ fieldErrors }), 400);
    }
    licenceKey = stored.key;
    const doctor: DoctorDetails = {
      specialty: value.specialty,
      licenceNumber: value.licenceNumber,
      licenceExpiresOn: value.licenceExpiresOn,
      licenceFileKey: stored.key,
      experienceYears: value.experienceYears,
    };
    account = { role: "doctor", ...person, doctor };
  }

  let outcome;
  try {
    outcome = await createStaffAccount(context, request, account, admin.userId, new Date());
  } catch (error) {
    if (licenceKey) await bucket.delete(licenceKey);
    throw error;
  }
  if (!outcome.ok) {
    if (licenceKey) await bucket.delete(licenceKey);
    const fieldErrors = { email: ["admin.accounts.errors.emailTaken"] };
    return refused(intent, submission.reply({ fieldErrors }), 409, "admin.accounts.errors.emailTaken");
  }
  const created = intent === ADD_DOCTOR_INTENT;
  return redirectWithToast(
    `/admin/dashboard?tab=${created ? "doctors" : "admins"}`,
    {
      kind: "success",
      title: created ? "admin.accounts.doctorCreated" : "admin.accounts.adminCreated",
      description: "admin.accounts.inviteSent",
      values: { email: value.email },
    },
    context.config,
  );
}
