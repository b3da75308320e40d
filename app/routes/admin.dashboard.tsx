import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { DashboardWelcome } from "~/components/dashboard-welcome";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";

// The admin's home after signing in; its cards arrive with the issues that bring their data.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAdmin(args);
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("dashboard.title")), firstName: user.firstName ?? "" };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AdminDashboard() {
  const { t } = useTranslation();
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <DashboardWelcome firstName={firstName} profilePath="/admin/profile">
      <p className="text-base-content/80">{t("dashboard.adminIntro")}</p>
    </DashboardWelcome>
  );
}
