// The browser loads only the language the page is in, and only the texts its reader can meet: the
// shared part (locales/<language>/browser.json) and the audiences' parts root names on <html>: a
// signed-in patient's, doctor's or admin's, and the guest's (account links). Emails, the landing, legal
// and sign-in pages are the server's alone (server.json).
import type { BackendModule } from "i18next";

import { type Audience, AUDIENCES, mergeTexts, type Texts } from "~/i18n";

const localeChunks = import.meta.glob<{ default: Texts }>([
  "./locales/*/browser.json",
  "./locales/*/patient.json",
  "./locales/*/doctor.json",
  "./locales/*/admin.json",
  "./locales/*/guest.json",
]);

/** The audiences root wrote on <html> (data-audience, separated by spaces) for this page's reader. */
function pageAudiences(): Audience[] {
  const written = (document.documentElement.dataset.audience ?? "").split(" ");
  return AUDIENCES.filter((known) => written.includes(known));
}

async function textsFor(language: string): Promise<Texts> {
  const parts = ["browser", ...pageAudiences()];
  const loaded = await Promise.all(
    parts.map((part) => {
      const load = localeChunks[`./locales/${language}/${part}.json`];
      if (!load) throw new Error(`No ${part} translations for ${language}`);
      return load().then((module) => module.default);
    }),
  );
  return loaded.reduce((all, part) => mergeTexts(all, part));
}

export const bundledLocales: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    textsFor(language).then(
      (texts) => callback(null, texts),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};
