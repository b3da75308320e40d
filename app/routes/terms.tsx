import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";

import { LegalDocument } from "~/components/legal-document";
import {
  CONSULTATION_FEE_ETB,
  DISPUTE_WINDOW_HOURS,
  ESCROW_RELEASE_HOURS,
  MIN_AGE_YEARS,
  PAYMENT_WINDOW_MINUTES,
  RECORD_RETENTION_YEARS,
  SUPPORT_EMAIL,
  SUPPORT_PHONE,
  SUPPORT_TELEGRAM,
} from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("legal.terms.title")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function TermsOfService() {
  const { t } = useTranslation();
  const contact = { email: SUPPORT_EMAIL, phone: SUPPORT_PHONE, telegram: SUPPORT_TELEGRAM };
  const sections = [
    { id: "about", title: t("legal.terms.about.title"), body: t("legal.terms.about.body") },
    { id: "emergency", title: t("legal.terms.emergency.title"), body: t("legal.terms.emergency.body") },
    { id: "eligibility", title: t("legal.terms.eligibility.title"), body: t("legal.terms.eligibility.body", { age: MIN_AGE_YEARS }) },
    {
      id: "payments",
      title: t("legal.terms.payments.title"),
      body: t("legal.terms.payments.body", {
        amount: CONSULTATION_FEE_ETB,
        minutes: PAYMENT_WINDOW_MINUTES,
        hours: ESCROW_RELEASE_HOURS,
      }),
    },
    {
      id: "disputes",
      title: t("legal.terms.disputes.title"),
      body: t("legal.terms.disputes.body", { hours: DISPUTE_WINDOW_HOURS, email: SUPPORT_EMAIL }),
    },
    { id: "records", title: t("legal.terms.records.title"), body: t("legal.terms.records.body", { count: RECORD_RETENTION_YEARS }) },
    { id: "conduct", title: t("legal.terms.conduct.title"), body: t("legal.terms.conduct.body") },
    { id: "contact", title: t("legal.terms.contact.title"), body: t("legal.terms.contact.body", contact) },
  ];
  return <LegalDocument title={t("legal.terms.title")} intro={t("legal.terms.intro")} sections={sections} />;
}
