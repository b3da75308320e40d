import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DashboardWelcome } from "~/components/dashboard-welcome";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";

// The doctor's home after signing in; its cards arrive with the issues that bring their data.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireActiveDoctor(args);
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("dashboard.title")), firstName: user.firstName ?? "" };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function DoctorDashboard() {
  const { t } = useTranslation();
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <DashboardWelcome firstName={firstName} profilePath="/doctor/profile">
      <p className="text-base-content/80">{t("dashboard.doctorIntro")}</p>
    </DashboardWelcome>
  );
}
