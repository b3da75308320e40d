// The browser loads only the language the page is in, as one JSON chunk; others load on demand.
import type { BackendModule } from "i18next";

const localeChunks = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*.json");

export const bundledLocales: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    const load = localeChunks[`./locales/${language}.json`];
    if (!load) return callback(new Error(`No translations for ${language}`), null);
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};
