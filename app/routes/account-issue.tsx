import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";

import { MessagePage } from "~/components/status-page";
import { SUPPORT_EMAIL } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";

// Where an inactive doctor lands after being signed out by the sign-in gate.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return { title: pageTitle(t("pages.accountIssue.title")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AccountIssue() {
  const { t } = useTranslation();
  return <MessagePage title={t("pages.accountIssue.title")} body={t("pages.accountIssue.body", { email: SUPPORT_EMAIL })} />;
}
