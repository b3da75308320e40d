import { useTranslation } from "react-i18next";

export interface SummaryText {
  observations: string;
  diagnosis: string;
  treatmentPlan: string;
}

/** The doctor's summary as the patient (and, once ended, the doctor) reads it; `printHref`, its printable page. */
export function ConsultationSummary({ summary, printHref }: { summary: SummaryText; printHref?: string }) {
  const { t } = useTranslation();
  const parts = [
    { title: t("consultation.summary.observations"), body: summary.observations },
    { title: t("consultation.summary.diagnosis"), body: summary.diagnosis },
    { title: t("consultation.summary.treatmentPlan"), body: summary.treatmentPlan },
  ];
  return (
    <section className="card border border-base-300" aria-labelledby="summary-title" data-testid="consultation-summary">
      <div className="card-body gap-3 p-4">
        <h2 id="summary-title" className="text-lg font-bold">
          {t("consultation.summary.title")}
        </h2>
        {parts.map((part) => (
          <div key={part.title} className="flex flex-col gap-1">
            <h3 className="font-bold">{part.title}</h3>
            <p className="whitespace-pre-wrap">{part.body.trim() || t("consultation.summary.empty")}</p>
          </div>
        ))}
        {printHref ? (
          <a href={printHref} className="link text-sm" data-testid="printable-summary">
            {t("consultation.summary.printable")}
          </a>
        ) : null}
      </div>
    </section>
  );
}
