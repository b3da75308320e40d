import { Link, useLocation, useNavigate } from "@remix-run/react";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";

import { type Language, LANGUAGE_NATIVE_NAMES, LANGUAGE_STORAGE_KEY, LANGUAGES } from "~/domain/languages";

/** The current URL with `lng` set: a plain link that works without JavaScript. */
function hrefInLanguage(pathname: string, search: string, hash: string, language: Language) {
  const params = new URLSearchParams(search);
  params.set("lng", language);
  return `${pathname}?${params.toString()}${hash}`;
}

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const current = i18n.language as Language;

  // With JavaScript, load the other language first, then navigate: the page never shows raw keys.
  function switchTo(language: Language, href: string) {
    return async (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      await i18n.loadLanguages(language);
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
      navigate(href, { preventScrollReset: true });
    };
  }

  return (
    <nav aria-label={t("shell.languageLabel")} className="flex items-center gap-1">
      {LANGUAGES.map((language) => {
        const href = hrefInLanguage(location.pathname, location.search, location.hash, language);
        const isCurrent = language === current;
        return (
          <Link
            key={language}
            to={href}
            lang={language}
            hrefLang={language}
            reloadDocument={false}
            aria-current={isCurrent ? "true" : undefined}
            aria-label={isCurrent ? undefined : t("shell.switchLanguage", { language: LANGUAGE_NATIVE_NAMES[language] })}
            onClick={isCurrent ? undefined : switchTo(language, href)}
            className={`btn btn-sm ${isCurrent ? "btn-active btn-ghost" : "btn-ghost"} ${language === "am" ? "font-wordmark" : ""}`}
            data-testid={`language-${language}`}
          >
            {/* አማርኛ takes its drawn width from the first frame (see the wordmark in app.css). */}
            {language === "am" ? <span className="min-w-[2.68em]">{LANGUAGE_NATIVE_NAMES.am}</span> : LANGUAGE_NATIVE_NAMES[language]}
          </Link>
        );
      })}
    </nav>
  );
}
