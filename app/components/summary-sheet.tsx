import { Link } from "@remix-run/react";

import { DocumentBrand } from "~/components/document-brand";
import type { SummaryDocument } from "~/domain/views/summary-document";

interface SummarySheetProps {
  documents: SummaryDocument[];
  both: boolean;
  backHref: string;
  words: { back: string; toggle: string; printHint: string };
}

/**
 * A consultation's printable summary: one sheet per language (each marked with its own `lang`), the
 * page's links hidden when printed, and the page itself sized for one A4 sheet (app.css, @page).
 */
export function SummarySheet({ documents, both, backHref, words }: SummarySheetProps) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6 print:max-w-none print:gap-4 print:p-0" data-testid="summary-sheet">
      <nav className="flex flex-wrap items-center justify-between gap-2 text-sm print:hidden">
        <Link to={backHref} className="link">
          {words.back}
        </Link>
        <a href={both ? "?" : "?both=1"} className="link">
          {words.toggle}
        </a>
      </nav>
      <p className="text-sm text-base-content/80 print:hidden">{words.printHint}</p>
      {documents.map((document, index) => (
        <article
          key={document.language}
          lang={document.language}
          className={`flex flex-col gap-3 text-sm ${index > 0 ? "border-t border-base-300 pt-6 print:break-before-page" : ""}`}
          data-testid="summary-document"
        >
          <header className="flex flex-col gap-1">
            <DocumentBrand />
            {index === 0 ? (
              <h1 className="text-2xl font-bold">{document.heading}</h1>
            ) : (
              <h2 className="text-2xl font-bold">{document.heading}</h2>
            )}
            <p className="text-base-content/80">{document.issuer}</p>
          </header>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2 print:grid-cols-2">
            {document.facts.map((fact) => (
              <div key={fact.label} className="flex min-w-0 flex-col">
                <dt className="text-xs text-base-content/80">{fact.label}</dt>
                <dd className="break-words">{fact.value}</dd>
              </div>
            ))}
          </dl>
          {document.sections.map((section) => (
            <section key={section.title} className="flex flex-col gap-2">
              <h2 className="text-lg font-bold">{section.title}</h2>
              {section.parts.map((part) => (
                <div key={part.title} className="flex flex-col">
                  <h3 className="font-semibold">{part.title}</h3>
                  <p className="whitespace-pre-wrap">{part.body}</p>
                </div>
              ))}
            </section>
          ))}
          <p className="text-xs text-base-content/80">{document.disclaimer}</p>
        </article>
      ))}
    </div>
  );
}
