// The admins' patient list: search by the patient's name, email or phone, or by a doctor they have
// seen; filter by where their consultations stand; each row with its consultation count and its
// assigned (most recent) doctor. One statement per page: the figures are subqueries on the
// (patient, created) index for the page's rows only, so the page costs the same with 10 or 10,000
// consultations, and no query runs per patient.
import { desc, eq, or, type SQL, sql } from "drizzle-orm";

import { profiles, users } from "~/db/schema";
import {
  ACTIVE_STATUSES,
  type ConsultationStatus,
  OPEN_STATUSES,
  SUBMITTED_STATUSES,
  WITH_DOCTOR_STATUSES,
} from "~/domain/consultation-status";
import { type PageRequest, toPage } from "~/domain/paging";
import { normalizeEthiopianPhone } from "~/domain/phone";
import type { PatientFilter } from "~/domain/staff-intents";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

/** `c.status` is one of `statuses` (the domain's groups, bound as parameters). */
const statusIn = (statuses: readonly ConsultationStatus[]) =>
  sql`c.status IN (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )})`;
/** A consultation that counts: drafts still waiting for their photos do not. */
const COUNTED = statusIn(SUBMITTED_STATUSES);
const ACTIVE = statusIn(ACTIVE_STATUSES);
const WAITING = statusIn(["pending"]);
const OPEN = statusIn(OPEN_STATUSES);
const WITH_DOCTOR = statusIn(WITH_DOCTOR_STATUSES);

const hasConsultation = (condition: SQL) => sql`EXISTS (SELECT 1 FROM consultations c WHERE c.patient_id = ${users.id} AND ${condition})`;

const FILTERS: Record<PatientFilter, SQL> = {
  active: hasConsultation(ACTIVE),
  waiting: hasConsultation(WAITING),
  completed: sql`${hasConsultation(statusIn(["completed"]))} AND NOT ${hasConsultation(OPEN)}`,
  none: sql`NOT ${hasConsultation(COUNTED)}`,
};

/** Patients are users with no other role (a user without a role row counts as a patient). */
const isPatient = sql`NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = ${users.id} AND r.role != 'patient')`;

/** A doctor of any of the patient's consultations matches by name, email or doctor code. */
function seenDoctorMatching(text: string) {
  const doctorName = sql.raw(`dp.first_name || ' ' || dp.last_name`);
  return sql`EXISTS (SELECT 1 FROM consultations c
    JOIN users du ON du.id = c.doctor_id
    JOIN doctors d ON d.user_id = c.doctor_id
    LEFT JOIN profiles dp ON dp.user_id = c.doctor_id
    WHERE c.patient_id = ${users.id} AND ${WITH_DOCTOR}
      AND (${contains(doctorName, text)} OR ${contains(sql.raw("du.email"), text)} OR ${contains(sql.raw("d.doctor_code"), text)}))`;
}

function patientMatches(text: string): SQL | undefined {
  if (!text) return undefined;
  const phone = normalizeEthiopianPhone(text);
  return or(
    contains(sql`${profiles.firstName} || ' ' || ${profiles.lastName}`, text),
    contains(users.email, text),
    contains(profiles.phone, phone ?? text),
    seenDoctorMatching(text),
  );
}

export interface PatientQuery {
  text: string;
  filter: PatientFilter | null;
}

/** One page of patients, newest accounts first. */
export async function searchPatients(db: Database, query: PatientQuery, page: PageRequest) {
  const conditions = [isPatient, patientMatches(query.text), query.filter ? FILTERS[query.filter] : undefined].filter(
    (condition): condition is SQL => condition !== undefined,
  );
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      phone: profiles.phone,
      joinedAt: users.createdAt,
      closedAt: users.closedAt,
      // A closed account's records: the next purge to come, else the last one done (ADR 0037).
      purgeAfter: sql<
        number | null
      >`(SELECT min(c.purge_after) FROM consultations c WHERE c.patient_id = ${users.id} AND c.purged_at IS NULL)`,
      purgedAt: sql<number | null>`(SELECT max(c.purged_at) FROM consultations c WHERE c.patient_id = ${users.id})`,
      consultationCount: sql<number>`(SELECT count(*) FROM consultations c WHERE c.patient_id = ${users.id} AND ${COUNTED})`.mapWith(
        Number,
      ),
      doctorName: sql<string | null>`(SELECT dp.first_name || ' ' || dp.last_name FROM consultations c
        JOIN profiles dp ON dp.user_id = c.doctor_id
        WHERE c.patient_id = ${users.id} AND ${WITH_DOCTOR}
        ORDER BY c.created_at DESC LIMIT 1)`,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(sql.join(conditions, sql` AND `))
    .orderBy(desc(users.createdAt), users.id)
    .limit(page.limit)
    .offset(page.offset);
  return toPage(
    rows.map(({ purgeAfter, purgedAt, ...row }) => ({
      ...row,
      joinedAt: row.joinedAt.toISOString(),
      purgeAfter: purgeAfter === null ? null : new Date(Number(purgeAfter)),
      purgedAt: purgedAt === null || purgeAfter !== null ? null : new Date(Number(purgedAt)),
    })),
    page,
  );
}
