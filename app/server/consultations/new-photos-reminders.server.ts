// The doctor's "send me new photos in N days": on that day the scheduled job reminds the patient, in
// their notifications and by email in their language, with the way to send them as a follow-up (to the
// same doctor first). Exactly once: the notification and the email are written only while the
// consultation has not been reminded, and it is marked reminded in the same batch; a second run, even
// at the same moment, finds it marked and writes nothing.
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { followUpPath, followUpRefusal } from "~/domain/follow-ups";
import type { Database } from "~/server/db/client.server";
import { profileName } from "~/server/db/profiles.server";
import { isActiveDoctor } from "~/server/follow-ups.server";
import { newPhotosEmail } from "~/server/mail/consultation-emails.server";
import { tidingsFor, tidingsStatements } from "~/server/tidings.server";

/** At most this many reminders per run (the job runs every 15 minutes). */
const REMINDERS_PER_RUN = 50;

/** Reminds every patient whose new photos fall due by `now`; returns how many were reminded by this call. */
export async function remindNewPhotos(db: Database, origin: string, now: Date, limit = REMINDERS_PER_RUN): Promise<number> {
  const due = await db
    .select()
    .from(consultations)
    .where(and(eq(consultations.status, "completed"), isNull(consultations.newPhotosRemindedAt), lte(consultations.newPhotosDueAt, now)))
    .orderBy(asc(consultations.newPhotosDueAt))
    .limit(limit);
  let reminded = 0;
  for (const consultation of due) {
    const { id, patientId, doctorId } = consultation;
    const [doctor, doctorActive] = await Promise.all([profileName(db, doctorId), doctorId ? isActiveDoctor(db, doctorId) : false]);
    // Their doctor gone (or the follow-up's time over), the photos go to a new consultation instead.
    const followUpOpen = followUpRefusal(consultation, patientId, doctorActive, now) === null;
    const link = followUpOpen ? followUpPath(id) : "/patient/new-consultation";
    const tidings = await tidingsFor(db, patientId, { kind: "new_photos_due", consultationId: id, link }, (t, to) =>
      newPhotosEmail(t, to, { doctorName: doctor?.firstName ?? "", title: consultation.title, link: `${origin}${link}`, followUpOpen }),
    );
    // Told only while not yet reminded, before the mark that says it was.
    const notYetReminded = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${id} AND ${consultations.newPhotosRemindedAt} IS NULL)`;
    const markReminded = db
      .update(consultations)
      .set({ newPhotosRemindedAt: now })
      .where(and(eq(consultations.id, id), isNull(consultations.newPhotosRemindedAt)))
      .returning({ id: consultations.id });
    const [first, ...rest] = [...tidingsStatements(db, [tidings], now, notYetReminded).statements, markReminded];
    const results = await db.batch([first!, ...rest]);
    if ((results.at(-1) as Array<{ id: string }>).length === 1) reminded += 1;
  }
  return reminded;
}
