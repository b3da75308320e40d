// The admins' doctor list and doctor page: search, edit (name, email, phone, specialty, picture) and
// activate or deactivate. Every change is audited; deactivation ends the doctor's sessions and sockets.
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { and, asc, eq, ne, or, type SQL, sql } from "drizzle-orm";

import { doctors, profiles, users } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { type PageRequest, toPage } from "~/domain/paging";
import { normalizeEthiopianPhone } from "~/domain/phone";
import { DoctorStatusSchema, EditDoctorSchema } from "~/domain/staff-forms";
import { UPDATE_DOCTOR_INTENT } from "~/domain/staff-intents";
import { parseForm } from "~/forms";
import { setDoctorStatus } from "~/server/admin/doctor-status.server";
import { storeDoctorPicture } from "~/server/admin/staff-files.server";
import { auditStatement, recordAudit } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";
import { deleteReplacedPicture } from "~/server/doctor-picture.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

const doctorColumns = {
  id: doctors.userId,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  email: users.email,
  phone: profiles.phone,
  status: doctors.status,
  specialty: doctors.specialty,
  doctorCode: doctors.doctorCode,
  experienceYears: doctors.experienceYears,
  licenceNumber: doctors.licenceNumber,
  licenceExpiresOn: doctors.licenceExpiresOn,
  licenceFileKey: doctors.licenceFileKey,
  profilePictureKey: doctors.profilePictureKey,
  consultationLanguages: doctors.consultationLanguages,
  joinedAt: doctors.createdAt,
  updatedAt: doctors.updatedAt,
};

const fullName = sql`${profiles.firstName} || ' ' || ${profiles.lastName}`;

/** A doctor matches by name, email, phone (typed in any usual form), specialty or doctor code. */
function doctorMatches(text: string): SQL | undefined {
  if (!text) return undefined;
  const phone = normalizeEthiopianPhone(text);
  return or(
    contains(fullName, text),
    ...[users.email, profiles.phone, doctors.specialty, doctors.doctorCode].map((column) => contains(column, text)),
    phone ? contains(profiles.phone, phone) : undefined,
  );
}

function selectDoctors(db: Database) {
  return db
    .select(doctorColumns)
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.userId))
    .leftJoin(profiles, eq(profiles.userId, doctors.userId));
}

/** A doctor as pages show them: dates as text, and whether each file exists rather than where. */
const forDisplay = <Row extends { joinedAt: Date; updatedAt: Date; licenceFileKey: string | null; profilePictureKey: string | null }>(
  row: Row,
) => {
  const { licenceFileKey, profilePictureKey, updatedAt, ...rest } = row;
  return {
    ...rest,
    joinedAt: row.joinedAt.toISOString(),
    hasLicenceFile: licenceFileKey !== null,
    /** Changes with every edit, so a new picture is never served from the browser's memory of the old one. */
    pictureVersion: profilePictureKey === null ? null : updatedAt.getTime(),
  };
};

/** One page of doctors matching `text`, by name. */
export async function searchDoctors(db: Database, text: string, page: PageRequest) {
  const rows = await selectDoctors(db)
    .where(doctorMatches(text))
    .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(doctors.userId))
    .limit(page.limit)
    .offset(page.offset);
  return toPage(rows.map(forDisplay), page);
}

/** The doctor with id `id` for an admin's page, or a 404 thrown (a malformed id included). */
export async function requireDoctor(db: Database, id: string | undefined) {
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const [row] = await selectDoctors(db).where(eq(doctors.userId, id));
  if (!row) throw new Response("Not Found", { status: 404 });
  return row;
}

export async function loadDoctorForAdmin(db: Database, id: string | undefined) {
  return forDisplay(await requireDoctor(db, id));
}

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
