import { useTranslation } from "react-i18next";

export interface LegalSection {
  id: string;
  title: string;
  body: string;
}

/** The date the legal texts last changed; shown on both pages. */
const LEGAL_TEXTS_UPDATED_ON = "2026-11-21";

export function LegalDocument({ title, intro, sections }: { title: string; intro: string; sections: LegalSection[] }) {
  const { t, i18n } = useTranslation();
  const updated = new Intl.DateTimeFormat(i18n.language === "am" ? "am-ET" : "en-GB", { dateStyle: "long" }).format(
    new Date(`${LEGAL_TEXTS_UPDATED_ON}T00:00:00Z`),
  );
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{title}</h1>
        <p className="text-sm text-base-content/80">{t("legal.lastUpdated", { date: updated })}</p>
        <p className="text-lg">{intro}</p>
      </header>
      {sections.map((section) => (
        <section key={section.id} id={section.id} className="flex flex-col gap-2">
          <h2 className="text-xl font-bold">{section.title}</h2>
          <p className="leading-relaxed">{section.body}</p>
        </section>
      ))}
    </article>
  );
}
