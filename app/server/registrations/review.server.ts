// An admin decides on a doctor's application. A decision first claims the row with one conditional
// UPDATE (status still pending): of two admins, a double click, or an approve racing a reject, exactly
// one wins, and only the winner of an approval creates the account (with its invite email). An
// approval that could not make the account gives the claim back; one cut short by a crash between the
// two is given back by the scheduled job (releaseStrandedApprovals), so no application stays approved
// without its account.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, lt, notExists } from "drizzle-orm";

import { auditLog, doctorRegistrations, users } from "~/db/schema";
import { splitFullName } from "~/domain/doctor-application";
import { isUuid } from "~/domain/ids";
import { getTranslatorFor } from "~/i18n.server";
import { createStaffAccount, type DoctorDetails, type StaffPerson } from "~/server/admin/staff-accounts.server";
import { recordAudit } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { sendMail } from "~/server/mail/mailer.server";
import { registrationRejectedEmail } from "~/server/mail/registration-emails.server";

type Registration = typeof doctorRegistrations.$inferSelect;

export type DecisionRefusal = "notFound" | "alreadyDecided" | "emailTaken";
export type DecisionOutcome = { ok: true; registration: Registration } | { ok: false; reason: DecisionRefusal };

/** Why a claim found nothing to claim: no such application, or someone decided it first. */
async function whyUnclaimed(context: AppLoadContext, id: string): Promise<DecisionOutcome> {
  const row = await context.db.query.doctorRegistrations.findFirst({ columns: { id: true }, where: eq(doctorRegistrations.id, id) });
  return { ok: false, reason: row ? "alreadyDecided" : "notFound" };
}

/** Moves a pending application to `status` for `adminId`; the row as it is now, or null if it was not pending. */
async function claim(
  context: AppLoadContext,
  id: string,
  decision: { status: "approved" } | { status: "rejected"; reason: string | null },
  adminId: string,
  now: Date,
) {
  const [row] = await context.db
    .update(doctorRegistrations)
    .set({
      status: decision.status,
      reviewedBy: adminId,
      reviewedAt: now,
      rejectionReason: decision.status === "rejected" ? decision.reason : null,
    })
    .where(and(eq(doctorRegistrations.id, id), eq(doctorRegistrations.status, "pending")))
    .returning();
  return row ?? null;
}

/** Gives back an approval that could not create the account: the application waits again. */
async function releaseApproval(context: AppLoadContext, id: string, adminId: string) {
  await context.db
    .update(doctorRegistrations)
    .set({ status: "pending", reviewedBy: null, reviewedAt: null })
    .where(and(eq(doctorRegistrations.id, id), eq(doctorRegistrations.status, "approved"), eq(doctorRegistrations.reviewedBy, adminId)));
}

export async function approveRegistration(
  context: AppLoadContext,
  request: Request,
  id: string,
  adminId: string,
  now: Date,
): Promise<DecisionOutcome> {
  if (!isUuid(id)) return { ok: false, reason: "notFound" };
  const registration = await claim(context, id, { status: "approved" }, adminId, now);
  if (!registration) return whyUnclaimed(context, id);
  const person: StaffPerson = {
    ...splitFullName(registration.fullName),
    email: registration.email,
    phone: registration.phone,
    preferredLanguage: registration.language,
  };
  const doctor: DoctorDetails = { experienceYears: registration.experienceYears, licenceFileKey: registration.licenceFileKey };
  let created: Awaited<ReturnType<typeof createStaffAccount>>;
  try {
    created = await createStaffAccount(context, request, { role: "doctor", doctor, ...person }, adminId, now, "applicationApproved");
  } catch (error) {
    await releaseApproval(context, id, adminId);
    throw error;
  }
  if (!created.ok) {
    await releaseApproval(context, id, adminId);
    return { ok: false, reason: created.reason };
  }
  await recordAudit(context.db, request, {
    action: "admin.registration_approved",
    actorId: adminId,
    targetType: "doctor_registration",
    targetId: id,
    details: { userId: created.userId },
  });
  return { ok: true, registration };
}

/** Longer than any request takes: an approval this old without its account was cut short. */
const STRANDED_APPROVAL_MS = 10 * 60_000;

/**
 * The scheduled job's half of an approval: applications approved over ten minutes ago whose account
 * was never made (the request that approved them died in between) wait for review again, audited.
 */
export async function releaseStrandedApprovals(db: Database, now: Date): Promise<number> {
  const released = await db
    .update(doctorRegistrations)
    .set({ status: "pending", reviewedBy: null, reviewedAt: null })
    .where(
      and(
        eq(doctorRegistrations.status, "approved"),
        lt(doctorRegistrations.reviewedAt, new Date(now.getTime() - STRANDED_APPROVAL_MS)),
        notExists(db.select({ id: users.id }).from(users).where(eq(users.email, doctorRegistrations.email))),
      ),
    )
    .returning({ id: doctorRegistrations.id });
  if (released.length > 0) {
    await db.insert(auditLog).values(
      released.map(({ id }) => ({
        actorId: null,
        action: "registration.approval_released" as const,
        targetType: "doctor_registration",
        targetId: id,
        createdAt: now,
      })),
    );
  }
  return released.length;
}

export async function rejectRegistration(
  context: AppLoadContext,
  request: Request,
  id: string,
  reason: string | null,
  adminId: string,
  now: Date,
): Promise<DecisionOutcome> {
  if (!isUuid(id)) return { ok: false, reason: "notFound" };
  const registration = await claim(context, id, { status: "rejected", reason }, adminId, now);
  if (!registration) return whyUnclaimed(context, id);
  await recordAudit(context.db, request, {
    action: "admin.registration_rejected",
    actorId: adminId,
    targetType: "doctor_registration",
    targetId: id,
    details: { withReason: reason !== null },
  });
  const t = await getTranslatorFor(registration.language);
  const origin = new URL(request.url).origin;
  await sendMail(
    context.db,
    context.config,
    registrationRejectedEmail(
      t,
      { email: registration.email, fullName: registration.fullName },
      { reason, applyLink: `${origin}/register/doctor` },
    ),
  );
  return { ok: true, registration };
}
