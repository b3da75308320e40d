import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";

import { MessagePage } from "~/components/status-page";
import { getTranslator, pageTitle } from "~/i18n.server";

// Where a signed-in user lands when their role may not open a page. Answers 403 so tools see it too.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return data({ title: pageTitle(t("pages.accessDenied.title")) }, { status: 403 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AccessDenied() {
  const { t } = useTranslation();
  return <MessagePage title={t("pages.accessDenied.title")} body={t("pages.accessDenied.body")} />;
}
