// What an admin's read-only view of a consultation shows, once they have opened it with a reason
// (app/server/admin/opening-grant.server.ts).
import type { AppLoadContext } from "@remix-run/cloudflare";

import { intakeOf } from "~/domain/consultation-request";
import { getTranslator, type Translate } from "~/i18n.server";
import { chatHistoryForAdmin } from "~/server/chat.server";
import type { ConsultationRow } from "~/server/consultation-access.server";
import { consultationForPage } from "~/server/consultation-view.server";
import type { Database } from "~/server/db/client.server";
import { feedbackOf } from "~/server/db/feedback.server";
import { contactOf, profileName, shownEmail, shownName } from "~/server/db/profiles.server";
import { listPhotos } from "~/server/files.server";
import { photoCaption } from "~/server/guided-photos.server";
import { intakeView } from "~/server/intake-words.server";

async function person(db: Database, t: Translate, userId: string | null) {
  if (!userId) return null;
  const [name, contact] = await Promise.all([profileName(db, userId), contactOf(db, userId)]);
  return { name: shownName(t, name), email: shownEmail({ email: contact?.email, closedAt: name?.closedAt }) };
}

/** Everything the admin's read-only view shows of a consultation. */
export async function consultationRecord(context: AppLoadContext, request: Request, consultation: ConsultationRow) {
  const { db } = context;
  const t = await getTranslator(request);
  const [patient, doctor, photos, feedback] = await Promise.all([
    person(db, t, consultation.patientId),
    person(db, t, consultation.doctorId),
    listPhotos(db, consultation.id),
    feedbackOf(db, consultation.id),
  ]);
  const chat = await chatHistoryForAdmin(
    context.cloudflare.env,
    t,
    consultation,
    {
      patient: patient?.name || t("admin.records.unknownPerson"),
      doctor: doctor?.name || t("admin.records.unknownPerson"),
    },
    new URL(request.url),
  );
  return {
    consultation: { ...consultationForPage(consultation), createdAt: consultation.createdAt.toISOString() },
    intake: intakeView(t, intakeOf(consultation)),
    patient,
    doctor,
    photoIds: photos.map((photo) => photo.id),
    photoCaptions: photos.map((photo) => photoCaption(t, photo)),
    chat,
    feedback: feedback ? { rating: feedback.rating, message: feedback.feedbackMessage, createdAt: feedback.createdAt.toISOString() } : null,
  };
}
