// What a doctor's profile says of their card for patients (the picture, the languages they consult in),
// and the row that page reads. The card's own page is app/routes/doctor.profile_.card.tsx, its server
// half beside it.
import { eq } from "drizzle-orm";
import type { TFunction } from "i18next";

import { doctors } from "~/db/schema";
import type { Database } from "~/server/db/client.server";
import { spokenLanguages } from "~/server/doctor-card.server";

/** The page where the doctor sets their card. */
export const CARD_PAGE = "/doctor/profile/card";

/** The doctor's own card columns; a 404 thrown when they have no doctor row. */
export async function ownCardRow(db: Database, doctorId: string) {
  const row = await db.query.doctors.findFirst({
    where: eq(doctors.userId, doctorId),
    columns: { profilePictureKey: true, consultationLanguages: true },
  });
  if (!row) throw new Response("Not Found", { status: 404 });
  return row;
}

/** What the doctor's profile says of their card: the languages, whether there is a picture, and the way to change them. */
export async function cardSummary(db: Database, t: TFunction, doctorId: string) {
  const row = await ownCardRow(db, doctorId);
  const languages = spokenLanguages(t, row.consultationLanguages);
  return {
    id: "card-for-patients",
    title: t("cardForPatients.title"),
    line: t(row.profilePictureKey ? "cardForPatients.summaryWithPicture" : "cardForPatients.summaryNoPicture", { languages }),
    change: t("cardForPatients.change"),
    href: CARD_PAGE,
  };
}
