// Doctor applications as admins read them: a page at a time, searched and filtered on the server.
import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";

import { doctorRegistrations, REGISTRATION_STATUSES } from "~/db/schema";
import { type PageRequest } from "~/domain/paging";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
/** The list's status filter: one status, or all of them with the pending ones first. */
export type RegistrationFilter = RegistrationStatus | "all";

export function registrationFilter(value: string | null): RegistrationFilter {
  return (REGISTRATION_STATUSES as readonly string[]).includes(value ?? "") ? (value as RegistrationStatus) : "all";
}

export async function listRegistrations(db: Database, options: { search: string; filter: RegistrationFilter; page: PageRequest }) {
  const { search, filter, page } = options;
  const conditions: SQL[] = [];
  if (filter !== "all") conditions.push(eq(doctorRegistrations.status, filter));
  if (search) {
    conditions.push(
      or(
        contains(doctorRegistrations.fullName, search),
        contains(doctorRegistrations.email, search),
        contains(doctorRegistrations.phone, search),
        contains(doctorRegistrations.cityCountry, search),
      )!,
    );
  }
  return db
    .select({
      id: doctorRegistrations.id,
      fullName: doctorRegistrations.fullName,
      email: doctorRegistrations.email,
      phone: doctorRegistrations.phone,
      cityCountry: doctorRegistrations.cityCountry,
      experienceYears: doctorRegistrations.experienceYears,
      licenceFileName: doctorRegistrations.licenceFileName,
      status: doctorRegistrations.status,
      createdAt: doctorRegistrations.createdAt,
      reviewedAt: doctorRegistrations.reviewedAt,
      rejectionReason: doctorRegistrations.rejectionReason,
    })
    .from(doctorRegistrations)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(sql`${doctorRegistrations.status} = 'pending' DESC`, desc(doctorRegistrations.createdAt))
    .limit(page.limit)
    .offset(page.offset);
}

export async function findRegistration(db: Database, id: string) {
  return (await db.query.doctorRegistrations.findFirst({ where: eq(doctorRegistrations.id, id) })) ?? null;
}
