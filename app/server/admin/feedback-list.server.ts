// Every patient's feedback for the admins, with both people's names and contacts: searched and paged in
// SQL, newest first.
import { and, desc, eq, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";

import { patientFeedback, profiles, users } from "~/db/schema";
import type { PageRequest } from "~/domain/paging";
import type { Translate } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

const patientProfile = alias(profiles, "patient_profile");
const patientUser = alias(users, "patient_user");
const doctorProfile = alias(profiles, "doctor_profile");
const doctorUser = alias(users, "doctor_user");

export interface FeedbackFilter {
  search: string;
  rating: number | null;
}

export async function feedbackForAdmins(db: Database, t: Translate, filter: FeedbackFilter, page: PageRequest) {
  const conditions: SQL[] = [];
  if (filter.rating !== null) conditions.push(eq(patientFeedback.rating, filter.rating));
  if (filter.search) {
    const columns = [
      patientProfile.firstName,
      patientProfile.lastName,
      patientUser.email,
      doctorProfile.firstName,
      doctorProfile.lastName,
      doctorUser.email,
      patientFeedback.feedbackMessage,
    ];
    conditions.push(or(...columns.map((column) => contains(column, filter.search)))!);
  }
  const rows = await db
    .select({
      id: patientFeedback.id,
      consultationId: patientFeedback.consultationId,
      rating: patientFeedback.rating,
      message: patientFeedback.feedbackMessage,
      allowContact: patientFeedback.allowContact,
      contactMethod: patientFeedback.contactMethod,
      contactValue: patientFeedback.contactValue,
      createdAt: patientFeedback.createdAt,
      patientFirstName: patientProfile.firstName,
      patientLastName: patientProfile.lastName,
      patientEmail: patientUser.email,
      patientPhone: patientProfile.phone,
      patientClosedAt: patientUser.closedAt,
      doctorFirstName: doctorProfile.firstName,
      doctorLastName: doctorProfile.lastName,
      doctorEmail: doctorUser.email,
      doctorPhone: doctorProfile.phone,
    })
    .from(patientFeedback)
    .leftJoin(patientProfile, eq(patientProfile.userId, patientFeedback.patientId))
    .leftJoin(patientUser, eq(patientUser.id, patientFeedback.patientId))
    .leftJoin(doctorProfile, eq(doctorProfile.userId, patientFeedback.doctorId))
    .leftJoin(doctorUser, eq(doctorUser.id, patientFeedback.doctorId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(patientFeedback.createdAt), desc(patientFeedback.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({
    id: row.id,
    consultationId: row.consultationId,
    rating: row.rating,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    // Where the patient asked to be reached, if they did; otherwise nothing of it is shown.
    contact: row.allowContact && row.contactMethod ? { method: row.contactMethod, value: row.contactValue ?? "" } : null,
    // A closed account is named so, without its placeholder address.
    patient: row.patientClosedAt
      ? { name: t("privacyRights.closedAccount"), email: "", phone: "" }
      : person(row.patientFirstName, row.patientLastName, row.patientEmail, row.patientPhone),
    doctor: row.doctorEmail ? person(row.doctorFirstName, row.doctorLastName, row.doctorEmail, row.doctorPhone) : null,
  }));
}

function person(firstName: string | null, lastName: string | null, email: string | null, phone: string | null) {
  return { name: `${firstName ?? ""} ${lastName ?? ""}`.trim(), email: email ?? "", phone: phone ?? "" };
}
