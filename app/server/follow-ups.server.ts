// Follow-ups on the server: whether a patient may ask the doctor of a completed consultation again
// (app/domain/follow-ups.ts decides), and the panels that say so, worded here in the reader's language
// (the pages ship none of these texts): "Ask Dr. X again" on the completed consultation, the wizard's
// notice or refusal, and the earlier consultation beside a follow-up on the doctor's page.
import { eq } from "drizzle-orm";
import type { TFunction } from "i18next";

import { doctors } from "~/db/schema";
import { DOCTOR_RESPONSE_PROMISE_MINUTES } from "~/domain/constants";
import { formatDay } from "~/domain/dates";
import {
  FOLLOW_UP_PARAM,
  FOLLOW_UP_WINDOW_DAYS,
  followUpOpenUntil,
  followUpPath,
  type FollowUpRefusal,
  followUpRefusal,
  followUpRefusalHttpStatus,
} from "~/domain/follow-ups";
import type { WordedPanelProps } from "~/domain/views/panel-words";
import type { TextKey } from "~/i18n";
import { recordAudit } from "~/server/audit.server";
import type { ConsultationRow } from "~/server/consultation-access.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById, findOwnConsultation } from "~/server/db/consultations.server";
import { profileName } from "~/server/db/profiles.server";

type Translate = TFunction<"common">;

export type FollowUpCheck =
  { ok: true; source: ConsultationRow; doctorId: string; doctorFirstName: string } | { ok: false; refusal: FollowUpRefusal };

/** Whether the doctor is still taking consultations (an active doctor account). */
export async function isActiveDoctor(db: Database, doctorId: string): Promise<boolean> {
  const doctor = await db.query.doctors.findFirst({ columns: { status: true }, where: eq(doctors.userId, doctorId) });
  return doctor?.status === "active";
}

/** Whether `patientId` may follow up `source` (their consultation, or the id of one) at `now`, with its doctor's name. */
export async function checkFollowUp(db: Database, patientId: string, source: string | ConsultationRow, now: Date): Promise<FollowUpCheck> {
  const row = typeof source === "string" ? await findOwnConsultation(db, source, patientId) : source;
  const doctorActive = row?.doctorId ? await isActiveDoctor(db, row.doctorId) : false;
  const refusal = followUpRefusal(row, patientId, doctorActive, now);
  if (refusal || !row?.doctorId) return { ok: false, refusal: refusal ?? "not_completed" };
  const doctor = await profileName(db, row.doctorId);
  return { ok: true, source: row, doctorId: row.doctorId, doctorFirstName: doctor?.firstName ?? "" };
}

/** The consultation the wizard's address says this request follows up, or null when it names none. */
export function followUpIdOf(url: URL): string | null {
  const value = url.searchParams.get(FOLLOW_UP_PARAM);
  return value === null || value === "" ? null : value;
}

const REFUSAL_TEXTS = {
  not_found: "followUp.refused.notFound",
  not_completed: "followUp.refused.notCompleted",
  too_late: "followUp.refused.tooLate",
  doctor_unavailable: "followUp.refused.doctorUnavailable",
} as const satisfies Record<FollowUpRefusal, TextKey>;

/** The wizard of a follow-up that may be sent: to whom it goes first, with what, and for how long. */
function followUpNoticePanel(t: Translate, language: string, check: Extract<FollowUpCheck, { ok: true }>): WordedPanelProps {
  const name = check.doctorFirstName;
  return {
    id: "follow-up-notice",
    title: t("followUp.wizard.title", { name }),
    lines: [
      t("followUp.wizard.body", {
        name,
        date: formatDay(check.source.completedAt ?? check.source.createdAt, language),
        minutes: DOCTOR_RESPONSE_PROMISE_MINUTES,
      }),
    ],
  };
}

/** Why this follow-up cannot be sent, and the way to a new consultation instead. */
export function followUpRefusedPanel(t: Translate, refusal: FollowUpRefusal): WordedPanelProps {
  return {
    id: "follow-up-refused",
    title: t("followUp.refused.title"),
    lines: [t(REFUSAL_TEXTS[refusal], { days: FOLLOW_UP_WINDOW_DAYS })],
    link: { to: "/patient/new-consultation", label: t("followUp.refused.action") },
  };
}

/**
 * "Ask Dr. X again" on the patient's completed consultation, while a follow-up may be asked (with the
 * doctor's wish for new photos, if they had one); null otherwise.
 */
export async function askAgainPanel(
  db: Database,
  t: Translate,
  language: string,
  consultation: ConsultationRow,
  now: Date,
): Promise<WordedPanelProps | null> {
  if (consultation.status !== "completed") return null;
  const check = await checkFollowUp(db, consultation.patientId, consultation, now);
  const openUntil = followUpOpenUntil(consultation);
  if (!check.ok || !openUntil) return null;
  const name = check.doctorFirstName;
  const photosDue = consultation.newPhotosDueAt
    ? [t("followUp.askAgain.photosDue", { name, date: formatDay(consultation.newPhotosDueAt, language) })]
    : [];
  return {
    id: "ask-again",
    title: t("followUp.askAgain.title"),
    lines: [...photosDue, t("followUp.askAgain.body", { name, date: formatDay(openUntil, language) })],
    link: { to: followUpPath(consultation.id), label: t("followUp.askAgain.action", { name }) },
  };
}

/**
 * Beside a follow-up on a doctor's page, the consultation it continues: its date, the patient's concern
 * then and the summary, with a link for the doctor it was with. A doctor who did not have it sees its
 * contents only once the follow-up is theirs (audited like any look at a consultation); before that, only
 * that it exists.
 */
export async function earlierConsultationPanel(
  db: Database,
  request: Request,
  t: Translate,
  language: string,
  consultation: ConsultationRow,
  doctorId: string,
): Promise<WordedPanelProps | null> {
  const earlier = consultation.followUpOfId ? await findConsultationById(db, consultation.followUpOfId) : undefined;
  if (!earlier || earlier.patientId !== consultation.patientId) return null;
  const date = formatDay(earlier.completedAt ?? earlier.createdAt, language);
  const title = t("followUp.earlier.title", { date });
  const hadIt = earlier.doctorId === doctorId;
  if (!hadIt && consultation.doctorId !== doctorId)
    return { id: "earlier-consultation", title, lines: [t("followUp.earlier.withAnotherDoctor", { date })] };
  if (!hadIt)
    await recordAudit(db, request, { actorId: doctorId, action: "consultation.viewed", targetType: "consultation", targetId: earlier.id });
  const line = (key: TextKey, text: string | null) => (text?.trim() ? [t(key, { text: text.trim() })] : []);
  return {
    id: "earlier-consultation",
    title,
    lines: [
      ...line("followUp.earlier.complaint", earlier.mainConcern),
      ...line("followUp.earlier.observations", earlier.observations),
      ...line("followUp.earlier.diagnosis", earlier.diagnosis),
      ...line("followUp.earlier.plan", earlier.treatmentPlan),
    ],
    link: hadIt ? { to: `/doctor/consultation/${earlier.id}`, label: t("followUp.earlier.link") } : undefined,
  };
}

/** What the new-request wizard shows of the follow-up its address names, with the page's status; null when it names none. */
export async function wizardFollowUp(db: Database, t: Translate, language: string, patientId: string, url: URL, now: Date) {
  const followUpOf = followUpIdOf(url);
  if (followUpOf === null) return null;
  const check = await checkFollowUp(db, patientId, followUpOf, now);
  if (check.ok) return { status: 200, shown: { carried: check.source.id, panel: followUpNoticePanel(t, language, check) } };
  return { status: followUpRefusalHttpStatus(check.refusal), shown: { carried: null, panel: followUpRefusedPanel(t, check.refusal) } };
}
