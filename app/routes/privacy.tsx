import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";

import { LegalDocument } from "~/components/legal-document";
import {
  MIN_AGE_YEARS,
  PRIVACY_EMAIL,
  RECORD_RETENTION_YEARS,
  SESSION_IDLE_TIMEOUT_MS,
  SUPPORT_EMAIL,
  SUPPORT_PHONE,
  SUPPORT_TELEGRAM,
} from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("legal.privacy.title")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function PrivacyPolicy() {
  const { t } = useTranslation();
  const contact = { email: SUPPORT_EMAIL, privacyEmail: PRIVACY_EMAIL, phone: SUPPORT_PHONE, telegram: SUPPORT_TELEGRAM };
  const sections = [
    { id: "collect", title: t("legal.privacy.collect.title"), body: t("legal.privacy.collect.body") },
    { id: "access", title: t("legal.privacy.access.title"), body: t("legal.privacy.access.body") },
    { id: "photos", title: t("legal.privacy.photos.title"), body: t("legal.privacy.photos.body") },
    {
      id: "retention",
      title: t("legal.privacy.retention.title"),
      body: t("legal.privacy.retention.body", { count: RECORD_RETENTION_YEARS }),
    },
    { id: "sharing", title: t("legal.privacy.sharing.title"), body: t("legal.privacy.sharing.body") },
    {
      id: "security",
      title: t("legal.privacy.security.title"),
      body: t("legal.privacy.security.body", { minutes: SESSION_IDLE_TIMEOUT_MS / 60_000 }),
    },
    { id: "minors", title: t("legal.privacy.minors.title"), body: t("legal.privacy.minors.body", { age: MIN_AGE_YEARS }) },
    { id: "rights", title: t("legal.privacy.rights.title"), body: t("legal.privacy.rights.body", { email: PRIVACY_EMAIL }) },
    { id: "contact", title: t("legal.privacy.contact.title"), body: t("legal.privacy.contact.body", contact) },
  ];
  return <LegalDocument title={t("legal.privacy.title")} intro={t("legal.privacy.intro")} sections={sections} />;
}
