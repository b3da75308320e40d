// The page where a doctor sets what patients read of them before paying (part of their profile), its
// server half: the card as a patient sees it, their picture (upload, replace, remove) and the languages
// they consult in. Worded here, in the doctor's language: the page ships none of its texts.
import { type ActionFunctionArgs, data } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import type { TFunction } from "i18next";

import { doctors } from "~/db/schema";
import {
  CONSULTATION_LANGUAGE_ORDER,
  consultationLanguagesOf,
  type DoctorPictureRefusal,
  MAX_DOCTOR_PICTURE_BYTES,
  MAX_DOCTOR_PICTURE_PIXELS,
  storedConsultationLanguages,
} from "~/domain/doctor-card";
import type { Language } from "~/domain/languages";
import { detectLanguage, getTranslator } from "~/i18n.server";
import { auditStatement } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import type { Database } from "~/server/db/client.server";
import { doctorCard } from "~/server/doctor-card.server";
import { CARD_PAGE, ownCardRow } from "~/server/doctor-card-settings.server";
import { declaresOversizePicture, removeOwnPicture, replaceOwnPicture } from "~/server/doctor-picture.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

const OWN_PICTURE = "/doctor/profile/picture";
const INTENTS = { upload: "upload-picture", remove: "remove-picture", languages: "save-languages" } as const;

const MEGABYTE = 1024 * 1024;

/** The page's words and state: the card as patients see it, the picture form and the languages form. */
export async function cardSettingsPage(db: Database, request: Request, doctorId: string) {
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const [row, card] = await Promise.all([ownCardRow(db, doctorId), doctorCard(db, t, language, doctorId, OWN_PICTURE)]);
  return {
    title: t("cardForPatients.title"),
    back: t("cardForPatients.back"),
    intro: t("cardForPatients.intro"),
    busy: t("forms.busy"),
    card,
    picture: {
      title: t("cardForPatients.pictureTitle"),
      label: t("cardForPatients.pictureLabel"),
      hint: t("cardForPatients.pictureHint", { megabytes: MAX_DOCTOR_PICTURE_BYTES / MEGABYTE }),
      none: row.profilePictureKey ? null : t("cardForPatients.noPicture"),
      upload: { intent: INTENTS.upload, label: t("cardForPatients.upload"), preparing: t("cardForPatients.preparing") },
      remove: row.profilePictureKey ? { intent: INTENTS.remove, label: t("cardForPatients.remove") } : null,
    },
    languages: {
      title: t("cardForPatients.languagesTitle"),
      hint: t("cardForPatients.languagesHint"),
      options: CONSULTATION_LANGUAGE_ORDER.map((code) => ({ value: code, label: t(`cardForPatients.languageNames.${code}`) })),
      chosen: storedConsultationLanguages(row.consultationLanguages) as string[],
      save: { intent: INTENTS.languages, label: t("cardForPatients.saveLanguages") },
    },
  };
}

const REFUSAL_STATUS: Record<DoctorPictureRefusal, number> = { missing: 400, tooLarge: 413, wrongType: 415, tooManyPixels: 413 };

/** The page again, with what was refused in the doctor's words (and the languages they sent, if those). */
const refused = (errors: { picture?: string; languages?: string }, status: number, chosen: string[] | null = null) =>
  data({ errors, chosen }, { status });

function refusePicture(t: TFunction, refusal: DoctorPictureRefusal) {
  const picture = t(`cardForPatients.errors.${refusal}`, {
    megabytes: MAX_DOCTOR_PICTURE_BYTES / MEGABYTE,
    megapixels: MAX_DOCTOR_PICTURE_PIXELS / 1_000_000,
  });
  return refused({ picture }, REFUSAL_STATUS[refusal]);
}

/**
 * The page's action, for the signed-in doctor's own card only: a new picture, its removal, or the
 * languages. Done: a redirect with a toast. Refused: the page again with the reason in the doctor's
 * words (4xx), and nothing changed.
 */
export async function cardSettingsAction({ context, request }: ActionFunctionArgs, doctor: SessionUser) {
  const t = await getTranslator(request);
  // Refused unread: no acceptable picture is this large.
  if (declaresOversizePicture(request)) return refusePicture(t, "tooLarge");
  const form = await readFormData(request);
  const intent = form.get("intent");
  const done = (title: "pictureSaved" | "pictureRemoved" | "languagesSaved") =>
    redirectWithToast(CARD_PAGE, { kind: "success", title: `cardForPatients.${title}` }, context.config);

  if (intent === INTENTS.upload) {
    const file = form.get("picture");
    const stored = await replaceOwnPicture(context, request, doctor.userId, file instanceof File ? file : null);
    return stored.ok ? done("pictureSaved") : refusePicture(t, stored.refusal);
  }
  if (intent === INTENTS.remove) {
    await removeOwnPicture(context, request, doctor.userId);
    return done("pictureRemoved");
  }
  if (intent === INTENTS.languages) {
    const chosen = consultationLanguagesOf(form.getAll("languages"));
    if (chosen.length === 0) return refused({ languages: t("cardForPatients.errors.noLanguage") }, 400, []);
    await saveLanguages(context.db, request, doctor.userId, chosen);
    return done("languagesSaved");
  }
  throw new Response("Bad Request", { status: 400 });
}

async function saveLanguages(db: Database, request: Request, doctorId: string, chosen: Language[]) {
  const stored = chosen.join(",");
  const before = (await ownCardRow(db, doctorId)).consultationLanguages;
  if (before === stored) return;
  await db.batch([
    db.update(doctors).set({ consultationLanguages: stored, updatedAt: new Date() }).where(eq(doctors.userId, doctorId)),
    auditStatement(db, request, {
      action: "doctor.languages_changed",
      actorId: doctorId,
      targetType: "user",
      targetId: doctorId,
      details: { before, after: stored },
    }),
  ]);
}
