import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { APPLICANT_CONTACT_BUSINESS_DAYS, DOCTOR_RESPONSE_PROMISE_MINUTES, PAYMENT_WINDOW_MINUTES } from "~/domain/constants";
import { birrText, CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { homePathForRole } from "~/domain/roles";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { findSessionUser } from "~/server/auth/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Public page; a signed-in visitor goes straight to their own dashboard.
  const user = await findSessionUser(context.db, request, new Date());
  if (user) throw redirect(homePathForRole(user.role));
  const t = await getTranslator(request);
  return { title: pageTitle(t("home.metaTitle")), description: t("home.metaDescription") };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
  { name: "description", content: data?.description },
];

export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function Landing() {
  const { t } = useTranslation();
  const fee = { amount: birrText(CONSULTATION_FEE_SANTIM), minutes: PAYMENT_WINDOW_MINUTES };
  const steps = [
    { title: t("home.step1Title"), body: t("home.step1Body") },
    { title: t("home.step2Title"), body: t("home.step2Body", fee) },
    { title: t("home.step3Title"), body: t("home.step3Body") },
  ];
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-8 sm:py-12">
      <section className="flex flex-col gap-5" aria-labelledby="hero-heading">
        <h1 id="hero-heading" className="text-3xl font-bold leading-tight sm:text-4xl">
          {t("home.heading")}
        </h1>
        <p className="max-w-2xl text-lg text-base-content/80">
          {t("home.lead", { minutes: DOCTOR_RESPONSE_PROMISE_MINUTES, amount: birrText(CONSULTATION_FEE_SANTIM) })}
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to="/register?type=patient" className="btn btn-primary btn-lg" data-testid="start-consultation">
            {t("home.startConsultation")}
          </Link>
          <Link to="/register/doctor" className="btn btn-outline btn-lg">
            {t("home.joinAsDoctor")}
          </Link>
        </div>
        <p className="text-sm">
          {t("home.haveAccount")}{" "}
          <Link to="/login" className="link link-primary font-semibold">
            {t("shell.signIn")}
          </Link>
        </p>
        <div role="note" className="alert alert-warning" data-testid="emergency-notice">
          <div>
            <p className="font-bold">{t("home.emergencyTitle")}</p>
            <p className="text-sm">{t("home.emergencyBody")}</p>
          </div>
        </div>
      </section>

      <section className="grid gap-4 sm:grid-cols-3" aria-label={t("brand.tagline")}>
        <Highlight title={t("home.promiseTitle", { minutes: DOCTOR_RESPONSE_PROMISE_MINUTES })} body={t("home.promiseBody")} />
        <Highlight title={t("home.priceTitle", { amount: birrText(CONSULTATION_FEE_SANTIM) })} body={t("home.priceBody", fee)} />
        <Highlight title={t("home.privacyTitle")} body={t("home.privacyBody")} />
      </section>

      <section className="flex flex-col gap-4" aria-labelledby="how-heading">
        <h2 id="how-heading" className="text-2xl font-bold">
          {t("home.howItWorks")}
        </h2>
        <ol className="grid gap-4 sm:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="card bg-base-200">
              <div className="card-body gap-2 p-5">
                <span className="badge badge-primary" aria-hidden="true">
                  {index + 1}
                </span>
                <h3 className="card-title text-lg">{step.title}</h3>
                <p>{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="card border border-base-300" aria-labelledby="doctors-heading">
        <div className="card-body gap-3 p-5">
          <h2 id="doctors-heading" className="card-title">
            {t("home.doctorsTitle")}
          </h2>
          <p>{t("home.doctorsBody", APPLICANT_CONTACT_BUSINESS_DAYS)}</p>
          <div className="card-actions">
            <Link to="/register/doctor" className="btn btn-secondary">
              {t("home.joinAsDoctor")}
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}

function Highlight({ title, body }: { title: string; body: string }) {
  return (
    <div className="card bg-base-200">
      <div className="card-body gap-2 p-5">
        <h2 className="card-title text-lg">{title}</h2>
        <p>{body}</p>
      </div>
    </div>
  );
}
