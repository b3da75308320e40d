import { createCookie } from "@remix-run/cloudflare";
import { RemixI18Next } from "remix-i18next/server";

import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES } from "~/domain/languages";
import { i18nConfig, mergeTexts, type Texts } from "~/i18n";
import amAdmin from "~/locales/am/admin.json";
import amBrowser from "~/locales/am/browser.json";
import amDoctor from "~/locales/am/doctor.json";
import amGuest from "~/locales/am/guest.json";
import amPatient from "~/locales/am/patient.json";
import amServer from "~/locales/am/server.json";
import enAdmin from "~/locales/en/admin.json";
import enBrowser from "~/locales/en/browser.json";
import enDoctor from "~/locales/en/doctor.json";
import enGuest from "~/locales/en/guest.json";
import enPatient from "~/locales/en/patient.json";
import enServer from "~/locales/en/server.json";

/**
 * Both languages are bundled into the Worker: no round trip to load a translation. The server has
 * every text, merged from its parts; the browser loads only the parts its reader meets (i18n.client).
 */
const allTexts = (...parts: Texts[]) => parts.reduce((all, part) => mergeTexts(all, part));
export const resources = {
  en: {
    common: allTexts(enBrowser, enPatient, enDoctor, enAdmin, enGuest, enServer) as typeof enBrowser &
      typeof enPatient &
      typeof enDoctor &
      typeof enAdmin &
      typeof enGuest &
      typeof enServer,
  },
  am: { common: allTexts(amBrowser, amPatient, amDoctor, amAdmin, amGuest, amServer) },
};

/** The visitor's language choice; the source of truth for server rendering. */
export const languageCookie = createCookie("__Host-qoda_lng", {
  path: "/",
  sameSite: "lax",
  secure: true,
  httpOnly: true,
  maxAge: 365 * 24 * 60 * 60,
});

const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    cookie: languageCookie,
    // An explicit ?lng= wins, then the saved choice, then the browser's preference.
    order: ["searchParams", "cookie", "header"],
  },
  i18next: { ...i18nConfig, resources },
});

export async function detectLanguage(request: Request): Promise<Language> {
  const detected = await i18nServer.getLocale(request);
  return isLanguage(detected) ? detected : DEFAULT_LANGUAGE;
}

/** A Set-Cookie header when the request asks for a language with `?lng=`, else null. */
export async function rememberRequestedLanguage(request: Request): Promise<string | null> {
  const requested = new URL(request.url).searchParams.get("lng");
  return isLanguage(requested) ? languageCookie.serialize(requested) : null;
}

/** A translator, as getTranslator and getTranslatorFor give one: for server code that words text. */
export type Translate = Awaited<ReturnType<typeof getTranslator>>;

/**
 * Words a key chosen at run time (a schema's message, an email's kind), which i18next's types cannot
 * follow: its untyped overload asks for a default, and the key itself is what i18next shows for a
 * missing key anyway. The locale tests check such keys exist in both languages.
 */
export function wordKey(t: Translate, key: string, values?: Record<string, string | number>): string {
  return t(key, { ...values, defaultValue: key });
}

// Made once per language for the Worker's life: each is a whole i18next instance, which cost every
// request a few hundred kilobytes of garbage when made per call (and a request may word in both).
const translators = new Map<Language, ReturnType<typeof i18nServer.getFixedT<"common">>>();

function translatorIn(language: Language) {
  let translator = translators.get(language);
  if (!translator) {
    translator = i18nServer.getFixedT(language, "common");
    translators.set(language, translator);
    // A translator that failed to start is made again next time rather than kept.
    translator.catch(() => translators.delete(language));
  }
  return translator;
}

/** A translator in the request's language, for text a loader returns (page titles, emails). */
export async function getTranslator(request: Request) {
  return translatorIn(await detectLanguage(request));
}

/** The document title of a page, with the brand after it. */
export function pageTitle(title: string): string {
  return `${title} · Qoda`;
}

/** A translator in a given language, e.g. for an email in the recipient's language. */
export function getTranslatorFor(language: Language) {
  return translatorIn(language);
}
