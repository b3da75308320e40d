// The doctors as admins read them: a search of the list, and one doctor for their page and its files.
// The page's edits and status changes are its server half's (app/routes/admin.doctors.$id.server.ts).
import { asc, eq, or, type SQL, sql } from "drizzle-orm";

import { doctors, profiles, users } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { type PageRequest, toPage } from "~/domain/paging";
import { normalizeEthiopianPhone } from "~/domain/phone";
import type { Database } from "~/server/db/client.server";
import { contains } from "~/server/db/search.server";

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
