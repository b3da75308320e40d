export const LANGUAGES = ["en", "am"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
/** Key under which the browser mirrors the chosen language (the server's cookie is the truth). */
export const LANGUAGE_STORAGE_KEY = "appLanguage";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The name of each language in itself, as the switcher shows it. */
export const LANGUAGE_NATIVE_NAMES: Record<Language, string> = { en: "English", am: "አማርኛ" };
