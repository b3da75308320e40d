import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, isLanguage } from "~/domain/languages";
import { i18nConfig } from "~/i18n";
import { bundledLocales } from "~/i18n.client";

async function hydrate() {
  // The server chose the language and wrote it into <html lang>; load that one before hydrating,
  // so the first paint and the hydrated page agree.
  const pageLanguage = document.documentElement.lang;
  await i18next
    .use(initReactI18next)
    .use(bundledLocales)
    .init({ ...i18nConfig, lng: isLanguage(pageLanguage) ? pageLanguage : DEFAULT_LANGUAGE });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
