// People's names and how to reach them: the one place routes and use cases look them up.
import { eq, inArray } from "drizzle-orm";

import { profiles, users } from "~/db/schema";
import type { Language } from "~/domain/languages";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

export interface PersonName {
  firstName: string;
  lastName: string;
  /** When they closed their account (its name was erased then, docs/decisions/0037). */
  closedAt: Date | null;
}

/**
 * How pages name a person to others: "First Last" (or the first name alone), or "Closed account" once
 * they closed it, since closing erased the name and a blank would look like a fault.
 */
export function shownName(
  t: (key: "privacyRights.closedAccount") => string,
  person: { firstName: string | null; lastName: string | null; closedAt: Date | null } | null,
  { firstNameOnly = false } = {},
): string {
  if (!person) return "";
  if (person.closedAt) return t("privacyRights.closedAccount");
  return (firstNameOnly ? (person.firstName ?? "") : `${person.firstName ?? ""} ${person.lastName ?? ""}`).trim();
}

/** A person's address as pages show it to others: none for a closed account (its address is a placeholder nobody can write to). */
export function shownEmail(person: { email: string | null | undefined; closedAt: Date | null | undefined }): string {
  return person.closedAt ? "" : (person.email ?? "");
}

/** The names of `userIds`, by id (ids without a profile are left out). */
async function profileNames(db: Database, userIds: Array<string | null | undefined>): Promise<Map<string, PersonName>> {
  const ids = [...new Set(userIds.filter((id): id is string => typeof id === "string"))];
  const names = new Map<string, PersonName>();
  for (const slice of inSlices(ids)) {
    const rows = await db
      .select({ userId: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName, closedAt: users.closedAt })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(inArray(profiles.userId, slice));
    for (const { userId, ...name } of rows) names.set(userId, name);
  }
  return names;
}

/** One person's name, or null. */
export async function profileName(db: Database, userId: string | null | undefined): Promise<PersonName | null> {
  return userId ? ((await profileNames(db, [userId])).get(userId) ?? null) : null;
}

/** How to write to someone: their address, first name and language. */
export async function contactOf(db: Database, userId: string): Promise<{ email: string; firstName: string; language: Language } | null> {
  const [row] = await db
    .select({ email: users.email, firstName: profiles.firstName, language: profiles.preferredLanguage })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row ? { email: row.email, firstName: row.firstName ?? "", language: row.language ?? "en" } : null;
}

/** Saves the language someone chose to read the site in (emails follow it too). */
export async function savePreferredLanguage(db: Database, userId: string, language: Language) {
  await db.update(profiles).set({ preferredLanguage: language }).where(eq(profiles.userId, userId));
}
