// i18next settings shared by the server render and the browser.
import type { InitOptions } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/domain/languages";
import type en from "~/locales/en.json";

export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  ns: ["common"],
  // React escapes what it renders; escaping twice would show entities.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} satisfies InitOptions;

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { common: typeof en };
  }
}
