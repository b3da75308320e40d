import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

import { MessagePage } from "~/components/status-page";
import { SUPPORT_EMAIL } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";

// Where an inactive doctor lands after being signed out by the sign-in gate.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  // Worded here: the page ships none of its texts.
  return {
    title: pageTitle(t("pages.accountIssue.title")),
    heading: t("pages.accountIssue.title"),
    body: t("pages.accountIssue.body", { email: SUPPORT_EMAIL }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AccountIssue() {
  const { heading, body } = useLoaderData<typeof loader>();
  return <MessagePage title={heading} body={body} />;
}
