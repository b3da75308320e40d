// Who accepted a patient's request, as the patient reads it before paying (issue 17, item 3): name,
// specialty, years of experience, consultations completed on Qoda, the average rating once there are
// enough ratings to mean something, and when an admin verified the licence. Worded on the server.
import { and, avg, count, eq, sql } from "drizzle-orm";
import type { TFunction } from "i18next";

import { consultations, doctorRegistrations, doctors, patientFeedback, profiles, users } from "~/db/schema";
import { formatDay } from "~/domain/dates";
import type { Database } from "~/server/db/client.server";

/** Fewer ratings than this say little: the card then says the doctor is new to ratings. */
const MIN_RATINGS_SHOWN = 5;

export interface DoctorCard {
  name: string;
  lines: string[];
  verified: string | null;
  pictureUrl: string | null;
  pictureAlt: string;
}

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
    pictureUrl: Number(doctor.hasPicture) === 1 ? pictureUrl : null,
    pictureAlt: t("payingDoctor.pictureAlt", { name }),
  };
}
