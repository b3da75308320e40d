// The admin's doctor page, its server half: edit the doctor's details and picture, or activate or
// deactivate them. Every change is audited; deactivation ends the doctor's sessions and sockets.
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { and, eq, ne } from "drizzle-orm";

import { doctors, profiles, users } from "~/db/schema";
import { DoctorStatusSchema, EditDoctorSchema } from "~/domain/staff-forms";
import { UPDATE_DOCTOR_INTENT } from "~/domain/staff-intents";
import { parseForm } from "~/forms";
import { setDoctorStatus } from "~/server/admin/doctor-status.server";
import { requireDoctor } from "~/server/admin/doctors.server";
import { storeDoctorPicture } from "~/server/admin/staff-files.server";
import { auditStatement, recordAudit } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import { deleteReplacedPicture } from "~/server/doctor-picture.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

const isEmailTaken = (error: unknown) => {
  const text = String((error as Error).cause ?? error);
  return text.includes("UNIQUE") && text.includes("users.email");
};

/**
 * The doctor page's action: edit the doctor's details and picture, or change their status. Bad input
 * is answered with the form's errors (400), an address in use with a clear error (409); nothing is
 * written then. A forged intent is a 400.
 */
export async function handleDoctorAction(context: AppLoadContext, request: Request, admin: SessionUser, doctorId: string | undefined) {
  const doctor = await requireDoctor(context.db, doctorId);
  const formData = await readFormData(request);
  if (formData.get("intent") === UPDATE_DOCTOR_INTENT) return updateDoctor(context, request, admin, doctor, formData);
  const submission = parseForm(formData, DoctorStatusSchema);
  if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
  const status = submission.value.intent === "activate" ? "active" : "inactive";
  const path = `/admin/doctors/${doctor.id}`;
  if (doctor.status === status) {
    // A second click, or a page left open: already done, nothing to change or audit.
    return redirectWithToast(
      path,
      { kind: "info", title: status === "active" ? "admin.doctors.alreadyActive" : "admin.doctors.alreadyInactive" },
      context.config,
    );
  }
  await setDoctorStatus(context, doctor.id, status, new Date());
  await recordAudit(context.db, request, {
    action: status === "active" ? "admin.doctor_activated" : "admin.doctor_deactivated",
    actorId: admin.userId,
    targetType: "user",
    targetId: doctor.id,
  });
  return redirectWithToast(
    path,
    { kind: "success", title: status === "active" ? "admin.doctors.activated" : "admin.doctors.deactivated" },
    context.config,
  );
}

type Doctor = Awaited<ReturnType<typeof requireDoctor>>;

async function updateDoctor(context: AppLoadContext, request: Request, admin: SessionUser, doctor: Doctor, formData: FormData) {
  const { db } = context;
  const submission = parseForm(formData, EditDoctorSchema);
  const refused = (status: number, fieldErrors?: Record<string, string[]>) =>
    data({ result: submission.reply(fieldErrors ? { fieldErrors } : undefined) }, { status });
  if (submission.status !== "success") return refused(400);
  const value = submission.value;

  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, value.email), ne(users.id, doctor.id)));
  if (other) return refused(409, { email: ["admin.accounts.errors.emailTaken"] });

  let pictureKey = doctor.profilePictureKey;
  if (value.picture) {
    const stored = await storeDoctorPicture(context.cloudflare.env.FILES, doctor.id, value.picture);
    if (!stored.ok) return refused(400, { picture: [`admin.doctors.errors.${stored.refusal}`] });
    pictureKey = stored.key;
  }

  const changed = Object.entries({
    firstName: value.firstName !== doctor.firstName,
    lastName: value.lastName !== doctor.lastName,
    email: value.email !== doctor.email,
    phone: value.phone !== doctor.phone,
    specialty: value.specialty !== doctor.specialty,
    picture: value.picture !== undefined,
  })
    .filter(([, differs]) => differs)
    .map(([field]) => field);
  const now = new Date();
  try {
    await db.batch([
      db.update(users).set({ email: value.email, updatedAt: now }).where(eq(users.id, doctor.id)),
      db
        .update(profiles)
        .set({ firstName: value.firstName, lastName: value.lastName, phone: value.phone, updatedAt: now })
        .where(eq(profiles.userId, doctor.id)),
      db
        .update(doctors)
        .set({ specialty: value.specialty, profilePictureKey: pictureKey, updatedAt: now })
        .where(eq(doctors.userId, doctor.id)),
      auditStatement(db, request, {
        action: "admin.doctor_updated",
        actorId: admin.userId,
        targetType: "user",
        targetId: doctor.id,
        details: { fields: changed },
      }),
    ]);
  } catch (error) {
    // Another admin gave the address to someone else a moment ago.
    if (isEmailTaken(error)) return refused(409, { email: ["admin.accounts.errors.emailTaken"] });
    throw error;
  }
  // A picture the doctor uploaded themselves lives under a key of its own: it goes once the admin's replaces it.
  if (pictureKey !== doctor.profilePictureKey) await deleteReplacedPicture(context.cloudflare.env.FILES, doctor.profilePictureKey);
  return redirectWithToast(`/admin/doctors/${doctor.id}`, { kind: "success", title: "admin.doctors.saved" }, context.config);
}
