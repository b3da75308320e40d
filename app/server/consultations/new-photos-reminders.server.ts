// The doctor's "send me new photos in N days": on that day the scheduled job reminds the patient, in
// their notifications and by email in their language, with the way to send them as a follow-up (to the
// same doctor first). Exactly once: the notification is written only while the consultation has not
// been reminded, the email only with that very notification, and the consultation is marked reminded
// in the same batch; a second run, even at the same moment, finds it marked and writes nothing.
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";

import { consultations, notifications } from "~/db/schema";
import { followUpPath, followUpRefusal } from "~/domain/follow-ups";
import { getTranslatorFor } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { notificationRow } from "~/server/db/notifications.server";
import { contactOf, profileName } from "~/server/db/profiles.server";
import { isActiveDoctor } from "~/server/follow-ups.server";
import { newPhotosEmail } from "~/server/mail/consultation-emails.server";
import { queuedMail } from "~/server/mail/mailer.server";

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
    const [patient, doctor, doctorActive] = await Promise.all([
      contactOf(db, patientId),
      profileName(db, doctorId),
      doctorId ? isActiveDoctor(db, doctorId) : false,
    ]);
    // Their doctor gone (or the follow-up's time over), the photos go to a new consultation instead.
    const followUpOpen = followUpRefusal(consultation, patientId, doctorActive, now) === null;
    const link = followUpOpen ? followUpPath(id) : "/patient/new-consultation";
    const t = patient ? await getTranslatorFor(patient.language) : null;
    const mail =
      patient && t
        ? newPhotosEmail(t, patient, {
            doctorName: doctor?.firstName ?? "",
            title: consultation.title,
            link: `${origin}${link}`,
            followUpOpen,
          })
        : null;
    const notificationId = crypto.randomUUID();
    const notYetReminded = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${id} AND ${consultations.newPhotosRemindedAt} IS NULL)`;
    const withThisNotification = sql`EXISTS (SELECT 1 FROM ${notifications} WHERE ${notifications.id} = ${notificationId})`;
    const [notified] = await db.batch([
      insertWhere(
        db,
        notifications,
        { id: notificationId, ...notificationRow(patientId, "new_photos_due", id, link, now) },
        notYetReminded,
      ),
      db
        .update(consultations)
        .set({ newPhotosRemindedAt: now })
        .where(and(eq(consultations.id, id), isNull(consultations.newPhotosRemindedAt))),
      ...(mail ? [queuedMail(db, mail, now, withThisNotification).statement] : []),
    ]);
    if (notified.meta.changes === 1) reminded += 1;
  }
  return reminded;
}
