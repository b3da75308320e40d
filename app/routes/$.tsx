import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";

import { StatusPage } from "~/components/status-page";
import { getTranslator, pageTitle } from "~/i18n.server";

// Any path no other route claims: the 404 page, inside the site's shell, with a link home.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getTranslator(request);
  return data({ title: pageTitle(t("pages.notFound.title")) }, { status: 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function NotFound() {
  return <StatusPage status={404} />;
}
