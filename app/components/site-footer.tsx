import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** `year`: this year on the reader's calendar, from the server (the footer ships no date code). */
export function SiteFooter({ year }: { year: string }) {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-base-300 bg-base-200 print:hidden">
      <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-6 text-sm">
        <nav aria-label={t("footer.legalLinks")} className="flex flex-wrap gap-x-4 gap-y-2">
          <Link to="/terms" className="link link-hover">
            {t("footer.terms")}
          </Link>
          <Link to="/privacy" className="link link-hover">
            {t("footer.privacy")}
          </Link>
          <Link to="/register/doctor" className="link link-hover">
            {t("footer.registerDoctor")}
          </Link>
        </nav>
        <p className="text-base-content/80">{t("footer.brokerage")}</p>
        <p className="text-base-content/80">{t("footer.copyright", { year })}</p>
      </div>
    </footer>
  );
}
