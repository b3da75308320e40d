import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The narrow, centred card that account pages (sign in, sign up, consent…) sit in. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-8">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4 p-5 sm:p-6">
          <h1 className="text-2xl font-bold">{title}</h1>
          {intro ? <p className="text-base-content/80">{intro}</p> : null}
          {children}
        </div>
      </div>
    </section>
  );
}

/** A one-time link that is used, expired or forged: it says so, and offers to send a new one. */
export function InvalidLinkCard({ newLink }: { newLink: { to: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("auth.links.invalidTitle")} intro={t("auth.links.invalidBody")}>
      <Link to={newLink.to} className="btn btn-primary">
        {newLink.label}
      </Link>
    </AuthCard>
  );
}
