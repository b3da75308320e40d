// A dermatologist's application (/register/doctor): the licence file goes to R2 under the
// application's id, checked by its bytes first; the row follows. One pending application per address:
// the partial unique index decides between two at once, and the loser's file is removed again.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq } from "drizzle-orm";

import { doctorRegistrations } from "~/db/schema";
import { type DoctorApplication, type LicenceRefusal, licenceRefusal, sniffLicenceType } from "~/domain/doctor-application";
import type { Language } from "~/domain/languages";
import { cleanLine } from "~/domain/text-hygiene";
import { auditStatement } from "~/server/audit.server";

export type ApplicationOutcome = { ok: true; id: string } | { ok: false; reason: LicenceRefusal | "alreadyPending" };

/** The R2 key of an application's licence file. */
const licenceKey = (registrationId: string) => `licences/${registrationId}`;

/** Enough of a file to know its type. */
const HEAD_BYTES = 16;

const isPendingEmailConflict = (error: unknown) => {
  const text = String((error as Error).cause ?? error);
  return text.includes("UNIQUE") && text.includes("doctor_registrations.email");
};

async function hasPendingApplication(context: AppLoadContext, email: string) {
  const row = await context.db.query.doctorRegistrations.findFirst({
    columns: { id: true },
    where: and(eq(doctorRegistrations.email, email), eq(doctorRegistrations.status, "pending")),
  });
  return row !== undefined;
}

export async function submitApplication(
  context: AppLoadContext,
  request: Request,
  application: DoctorApplication,
  language: Language,
  now: Date,
): Promise<ApplicationOutcome> {
  const { licence } = application;
  const head = new Uint8Array(await licence.slice(0, HEAD_BYTES).arrayBuffer());
  const refusal = licenceRefusal(licence.size, head);
  if (refusal) return { ok: false, reason: refusal };
  if (await hasPendingApplication(context, application.email)) return { ok: false, reason: "alreadyPending" };

  const id = crypto.randomUUID();
  const contentType = sniffLicenceType(head)!;
  const bucket = context.cloudflare.env.FILES;
  await bucket.put(licenceKey(id), licence.stream(), { httpMetadata: { contentType } });
  try {
    await context.db.batch([
      context.db.insert(doctorRegistrations).values({
        id,
        fullName: application.fullName,
        phone: application.phone,
        email: application.email,
        cityCountry: application.cityCountry,
        experienceYears: application.experienceYears,
        licenceFileKey: licenceKey(id),
        // Shown to admins: one clean line, whatever the browser sent.
        licenceFileName: cleanLine(licence.name).trim().slice(0, 200) || "licence",
        licenceContentType: contentType,
        licenceSizeBytes: licence.size,
        language,
        createdAt: now,
      }),
      auditStatement(context.db, request, {
        action: "registration.submitted",
        actorId: null,
        targetType: "doctor_registration",
        targetId: id,
      }),
    ]);
  } catch (error) {
    // Nothing of a refused application stays behind.
    await bucket.delete(licenceKey(id));
    if (isPendingEmailConflict(error)) return { ok: false, reason: "alreadyPending" };
    throw error;
  }
  return { ok: true, id };
}
