import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ConsultationList } from "~/components/consultation-list";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { patientConsultations } from "~/server/db/consultation-lists.server";

// Patients: all of their own consultations.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const t = await getTranslator(args.request);
  const rows = await patientConsultations(args.context.db, patient.userId);
  return {
    title: pageTitle(t("patientPages.consultations")),
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      priority: row.priority,
      createdAt: row.createdAt.toISOString(),
      declined: row.declineReason !== null,
      subtitle: row.doctorFirstName ? t("consultation.withDoctor", { name: row.doctorFirstName }) : undefined,
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function PatientConsultations() {
  const { t } = useTranslation();
  const { items } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{t("patientPages.consultations")}</h1>
        <Link to="/patient/new-consultation" className="btn btn-primary btn-sm">
          {t("patientPages.startNew")}
        </Link>
      </div>
      <ConsultationList items={items} hrefFor={(id) => `/patient/consultation/${id}`} empty={t("patientPages.noConsultations")} />
    </section>
  );
}
