// A completed consultation's printable summary (issue 17, item 5), worded on the server in one
// language: the request, the doctor's summary, who the doctor is (with their licence number) and the
// dates. Amharic readers read Ethiopian dates; English readers the Gregorian date with the Ethiopian
// one beside it. The page that shows it ships no script and prints on one A4 page.
import { eq } from "drizzle-orm";

import { doctors } from "~/db/schema";
import { formatConsultationId } from "~/domain/constants";
import { intakeOf } from "~/domain/consultation-request";
import { formatDocumentDay } from "~/domain/dates";
import { labelled } from "~/domain/label-colon";
import type { Language } from "~/domain/languages";
import type { SummaryDocument } from "~/domain/views/summary-document";
import { detectLanguage, getTranslatorFor, pageTitle } from "~/i18n.server";
import type { ConsultationRow } from "~/server/consultation-access.server";
import type { Database } from "~/server/db/client.server";
import { profileName, shownName } from "~/server/db/profiles.server";
import { intakeView } from "~/server/intake-words.server";

/** The summary of a completed consultation in `language`. */
async function summaryDocument(db: Database, consultation: ConsultationRow, language: Language): Promise<SummaryDocument> {
  const t = await getTranslatorFor(language);
  const [patient, doctor, doctorRow] = await Promise.all([
    profileName(db, consultation.patientId),
    profileName(db, consultation.doctorId),
    consultation.doctorId
      ? db.query.doctors.findFirst({ where: eq(doctors.userId, consultation.doctorId), columns: { licenceNumber: true, specialty: true } })
      : null,
  ]);
  const text = (body: string | null) => body?.trim() || t("summaryDocument.none");
  const intake = intakeView(t, intakeOf(consultation));
  return {
    language,
    heading: t("summaryDocument.heading"),
    issuer: t("summaryDocument.issuer"),
    facts: [
      { label: t("summaryDocument.consultation"), value: `#${formatConsultationId(consultation.id)}` },
      { label: t("summaryDocument.patient"), value: shownName(t, patient) },
      {
        label: t("summaryDocument.doctor"),
        value: t("summaryDocument.doctorValue", { name: shownName(t, doctor), specialty: doctorRow?.specialty ?? "" }),
      },
      { label: t("summaryDocument.licence"), value: doctorRow?.licenceNumber || t("summaryDocument.none") },
      { label: t("summaryDocument.requestedOn"), value: formatDocumentDay(consultation.createdAt, language) },
      { label: t("summaryDocument.endedOn"), value: consultation.completedAt ? formatDocumentDay(consultation.completedAt, language) : "" },
    ],
    sections: [
      {
        title: t("summaryDocument.request"),
        parts: [
          ...(intake ? [{ title: intake.heading, body: intake.rows.map((row) => labelled(row.label, row.text)).join("\n") }] : []),
          { title: t("consultation.mainConcern"), body: text(consultation.mainConcern) },
          { title: t("consultation.medicalHistory"), body: text(consultation.medicalHistory) },
          { title: t("consultation.additionalComments"), body: text(consultation.additionalComments) },
        ],
      },
      {
        title: t("summaryDocument.summary"),
        parts: [
          { title: t("consultation.summary.observations"), body: text(consultation.observations) },
          { title: t("consultation.summary.diagnosis"), body: text(consultation.diagnosis) },
          { title: t("consultation.summary.treatmentPlan"), body: text(consultation.treatmentPlan) },
        ],
      },
    ],
    disclaimer: t("summaryDocument.disclaimer"),
  };
}

/** The reader's language first; with `both`, the other language below it. */
async function summaryDocuments(db: Database, consultation: ConsultationRow, language: Language, both: boolean) {
  const other: Language = language === "am" ? "en" : "am";
  return Promise.all([language, ...(both ? [other] : [])].map((each) => summaryDocument(db, consultation, each)));
}

/** What a summary page shows: the documents, and its own words (back, both languages, how to print). */
export async function summaryPage(db: Database, request: Request, consultation: ConsultationRow, backHref: string) {
  const language = await detectLanguage(request);
  const both = new URL(request.url).searchParams.get("both") === "1";
  const t = await getTranslatorFor(language);
  const documents = await summaryDocuments(db, consultation, language, both);
  return {
    title: pageTitle(`${t("summaryDocument.heading")} #${formatConsultationId(consultation.id)}`),
    documents,
    both,
    backHref,
    words: {
      back: t("summaryDocument.back"),
      toggle: both ? t("summaryDocument.oneLanguage") : t("summaryDocument.bothLanguages"),
      printHint: t("summaryDocument.printHint"),
    },
  };
}
