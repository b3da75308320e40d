// Who accepted a patient's request, as the patient reads it before paying (issue 17, item 3): name,
// specialty, years of experience, consultations completed on Qoda, the average rating once there are
// enough ratings to mean something, the languages they consult in, and when an admin verified the licence.
// Worded on the server.
import { and, avg, count, eq, sql } from "drizzle-orm";
import type { TFunction } from "i18next";

import { consultations, doctorRegistrations, doctors, patientFeedback, profiles, users } from "~/db/schema";
import { formatDay } from "~/domain/dates";
import { type DoctorCard, storedConsultationLanguages } from "~/domain/doctor-card";
import type { Database } from "~/server/db/client.server";

/** Fewer ratings than this say little: the card then says the doctor is new to ratings. */
const MIN_RATINGS_SHOWN = 5;

export async function doctorCard(
  db: Database,
  t: TFunction,
  language: string,
  doctorId: string,
  pictureUrl: string,
): Promise<DoctorCard | null> {
  const [doctor] = await db
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      specialty: doctors.specialty,
      experienceYears: doctors.experienceYears,
      hasPicture: sql<number>`${doctors.profilePictureKey} IS NOT NULL`,
      consultationLanguages: doctors.consultationLanguages,
      updatedAt: doctors.updatedAt,
      // The approval of their application, if they applied (an admin-added doctor was verified when added).
      verifiedAt: sql<
        number | null
      >`coalesce((SELECT max(${doctorRegistrations.reviewedAt}) FROM ${doctorRegistrations} WHERE ${doctorRegistrations.email} = ${users.email} AND ${doctorRegistrations.status} = 'approved'), ${doctors.createdAt})`,
    })
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.userId))
    .leftJoin(profiles, eq(profiles.userId, doctors.userId))
    .where(eq(doctors.userId, doctorId));
  if (!doctor) return null;
  const [[completed], [ratings]] = await Promise.all([
    db
      .select({ count: count() })
      .from(consultations)
      .where(and(eq(consultations.doctorId, doctorId), eq(consultations.status, "completed"))),
    db
      .select({ count: count(), average: avg(patientFeedback.rating) })
      .from(patientFeedback)
      .where(eq(patientFeedback.doctorId, doctorId)),
  ]);
  const name = t("doctorCard.name", { name: `${doctor.firstName ?? ""} ${doctor.lastName ?? ""}`.trim() });
  const rated = Number(ratings?.count ?? 0);
  const lines = [
    doctor.specialty,
    t("cardForPatients.speaks", { languages: spokenLanguages(t, doctor.consultationLanguages) }),
    ...(doctor.experienceYears ? [t("payingDoctor.experience", { count: doctor.experienceYears })] : []),
    t("payingDoctor.completed", { count: Number(completed?.count ?? 0) }),
    rated >= MIN_RATINGS_SHOWN
      ? t("payingDoctor.rating", { rating: Number(ratings?.average ?? 0).toFixed(1), count: rated })
      : t("payingDoctor.newToRatings"),
  ];
  return {
    name,
    lines,
    verified: doctor.verifiedAt ? t("payingDoctor.verified", { date: formatDay(new Date(Number(doctor.verifiedAt)), language) }) : null,
    // Versioned by the last change, so a new picture is never served from the browser's memory of the old one.
    pictureUrl: Number(doctor.hasPicture) === 1 ? `${pictureUrl}?v=${doctor.updatedAt.getTime()}` : null,
    pictureAlt: t("payingDoctor.pictureAlt", { name }),
  };
}

/** A doctor's stored consultation languages ("am,en") as the reader names them: "Amharic, English". */
export function spokenLanguages(t: TFunction, stored: string) {
  return storedConsultationLanguages(stored)
    .map((language) => t(`cardForPatients.languageNames.${language}`))
    .join(t("cardForPatients.listSeparator"));
}
