import { useTranslation } from "react-i18next";

/** The description's sections (Main Concern, Medical History, Additional Comments), the empty ones left out. */
export function ConsultationSections({
  mainConcern,
  medicalHistory,
  additionalComments,
}: {
  mainConcern: string;
  medicalHistory: string;
  additionalComments: string;
}) {
  const { t } = useTranslation();
  const sections = [
    { title: t("consultation.mainConcern"), body: mainConcern },
    { title: t("consultation.medicalHistory"), body: medicalHistory },
    { title: t("consultation.additionalComments"), body: additionalComments },
  ].filter((section) => section.body.trim() !== "");
  return (
    <>
      {sections.map((section) => (
        <section key={section.title} className="flex flex-col gap-1">
          <h2 className="font-bold">{section.title}</h2>
          <p className="whitespace-pre-wrap">{section.body}</p>
        </section>
      ))}
    </>
  );
}
