import type { Language } from "../languages";

/** A consultation's summary worded in one language (by summary-document.server.ts). */
export interface SummaryDocument {
  language: Language;
  heading: string;
  issuer: string;
  facts: Array<{ label: string; value: string }>;
  sections: Array<{ title: string; parts: Array<{ title: string; body: string }> }>;
  disclaimer: string;
}
