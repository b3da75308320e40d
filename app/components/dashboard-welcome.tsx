import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The top of each role's dashboard: a greeting by first name and the way to the profile. */
export function DashboardWelcome({ firstName, profilePath, children }: { firstName: string; profilePath: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-8">
      <h1 className="text-2xl font-bold" data-testid="dashboard-greeting">
        {t("dashboard.welcome", { name: firstName })}
      </h1>
      {children}
      <Link to={profilePath} className="link link-primary self-start">
        {t("profile.title")}
      </Link>
    </section>
  );
}
