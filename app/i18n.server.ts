import { createCookie } from "@remix-run/cloudflare";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE, LANGUAGES, isLanguage, type Language } from "~/domain/languages";
import { i18nConfig } from "~/i18n";
import am from "~/locales/am.json";
import en from "~/locales/en.json";

/** Both languages are bundled into the Worker: no round trip to load a translation. */
export const resources = { en: { common: en }, am: { common: am } };

/** The visitor's language choice; the source of truth for server rendering. */
export const languageCookie = createCookie("__Host-qoda_lng", {
  path: "/",
  sameSite: "lax",
  secure: true,
  httpOnly: true,
  maxAge: 365 * 24 * 60 * 60,
});

export const i18nServer = new RemixI18Next({
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

/** A translator in the request's language, for text a loader returns (page titles, emails). */
export async function getTranslator(request: Request) {
  return i18nServer.getFixedT(await detectLanguage(request), "common");
}

/** The document title of a page, with the brand after it. */
export function pageTitle(title: string): string {
  return `${title} · Qoda`;
}

/** A translator in a given language, e.g. for an email in the recipient's language. */
export function getTranslatorFor(language: Language) {
  return i18nServer.getFixedT(language, "common");
}
