import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";

import { LegalDocument } from "~/components/legal-document";
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
  return <LegalDocument name="privacy" />;
}
