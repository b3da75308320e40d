// i18next settings shared by the server render and the browser.
import type { i18n, InitOptions, ParseKeys } from "i18next";

import { DEFAULT_LANGUAGE, LANGUAGES } from "~/domain/languages";
import type enAdmin from "~/locales/en/admin.json";
import type enBrowser from "~/locales/en/browser.json";
import type enDoctor from "~/locales/en/doctor.json";
import type enGuest from "~/locales/en/guest.json";
import type enPatient from "~/locales/en/patient.json";
import type enServer from "~/locales/en/server.json";

export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  ns: ["common"],
  // React escapes what it renders; escaping twice would show entities.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} satisfies InitOptions;

export type Texts = { [key: string]: string | Texts };

/**
 * Readers with texts of their own (locales/<language>/<audience>.json), loaded only for them: each
 * role's, and the guest's (signing in, confirming, resetting: pages of a reader not signed in, and of
 * the account links any reader may open).
 */
export const AUDIENCES = ["patient", "doctor", "admin", "guest"] as const;
export type Audience = (typeof AUDIENCES)[number];

/** A page of account links exports `handle = guestTexts`, so a signed-in reader's browser loads them too. */
export const guestTexts = { texts: "guest" } as const;

/** The server's texts: the browser's part and the server's own part, merged section by section. */
export function mergeTexts<First extends Texts, Second extends Texts>(first: First, second: Second): First & Second {
  const merged: Texts = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const existing = merged[key];
    merged[key] = typeof existing === "object" && typeof value === "object" ? mergeTexts(existing, value) : value;
  }
  return merged as First & Second;
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: {
      common: typeof enBrowser & typeof enPatient & typeof enDoctor & typeof enAdmin & typeof enGuest & typeof enServer;
    };
  }
}

/** A key of the dictionary: what form errors, toasts and outcomes carry, checked by the compiler. */
export type TextKey = ParseKeys<"common">;

/** A message to show: its key and the values it speaks of. */
export interface TextMessage {
  key: TextKey;
  values?: Record<string, string | number>;
}

/**
 * Whether a string that crossed the wire untyped (a form error in conform's reply) is a key of the
 * dictionary this page has loaded.
 */
export function isTextKey(i18n: Pick<i18n, "exists">, value: string): value is TextKey {
  return i18n.exists(value);
}
