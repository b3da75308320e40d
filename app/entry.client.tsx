import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";

import { DEFAULT_LANGUAGE, isLanguage } from "~/domain/languages";
import { i18nConfig } from "~/i18n";
import { bundledLocales } from "~/i18n.client";

async function hydrate() {
  // The server chose the language and wrote it into <html lang>; load that one before hydrating,
  // so the first paint and the hydrated page agree.
  const pageLanguage = document.documentElement.lang;
  const decoded = pageDataDecoded();
  await i18next
    .use(initReactI18next)
    .use(bundledLocales)
    .init({
      ...i18nConfig,
      lng: isLanguage(pageLanguage) ? pageLanguage : DEFAULT_LANGUAGE,
      // A text the browser lacks (kept in the server's part by mistake) is an error the journeys catch.
      saveMissing: true,
      missingKeyHandler: (_languages, _namespace, key) => console.error(`Missing translation in the browser: ${key}`),
    });

  await decoded;
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

/**
 * Resolves once Remix has decoded the page's data (single fetch streams it into the HTML). Until then
 * RemixBrowser suspends outside any boundary, and a tap before React's first slice of work makes React
 * hydrate at once, meet that suspension and give the page up with #345 (react#28800; docs/decisions/0048).
 * Called once outside React, it starts the decoding and throws the promise it would throw into React.
 */
async function pageDataDecoded() {
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown;
  }
}

void hydrate();
