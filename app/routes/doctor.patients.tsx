import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { formatDay } from "~/domain/dates";
import { groupByPatient } from "~/domain/my-patients";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { doctorConsultations } from "~/server/db/consultation-lists.server";
import { shownEmail, shownName } from "~/server/db/profiles.server";

// Active doctors: "My Patients", grouped from their own consultations.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const search = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  const rows = await doctorConsultations(context.db, doctor.userId, { search: search || undefined });
  const t = await getTranslator(request);
  const groups = groupByPatient(
    rows.map((row) => ({
      patientId: row.patientId,
      patientName: shownName(t, { firstName: row.patientFirstName, lastName: row.patientLastName, closedAt: row.patientClosedAt }),
      // A closed account shows no address, and My Patients links no search for it.
      patientEmail: shownEmail({ email: row.patientEmail, closedAt: row.patientClosedAt }),
      status: row.status,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
      diagnosis: row.diagnosis,
    })),
  );
  return {
    title: pageTitle(t("doctor.myPatients")),
    search,
    patients: groups.map((group) => ({ ...group, lastConsultationAt: group.lastConsultationAt.toISOString() })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

const STANDING_CLASS = { ongoing: "badge-primary", pending: "badge-warning", completed: "badge-success" } as const;

export default function MyPatients() {
  const { t, i18n } = useTranslation();
  const { search, patients } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-bold">{t("doctor.myPatients")}</h1>
      <Form method="get" role="search" className="flex gap-2">
        <input type="search" name="q" defaultValue={search} aria-label={t("doctor.filter.search")} className="input input-sm w-full" />
        <button type="submit" className="btn btn-sm">
          {t("doctor.filter.search")}
        </button>
      </Form>
      {patients.length === 0 ? <p className="text-sm text-base-content/70">{t("doctor.noPatients")}</p> : null}
      <ul className="grid gap-3 sm:grid-cols-2" data-testid="patient-list">
        {patients.map((patient) => (
          <li key={patient.patientId} className="card border border-base-300">
            <div className="card-body gap-1 p-4 text-sm">
              <div className="flex items-center justify-between gap-2">
                <h2 className="font-bold">
                  {patient.email === "" ? (
                    patient.name
                  ) : (
                    <Link to={`/doctor/consultations?q=${encodeURIComponent(patient.email)}`} className="link" data-testid="patient-link">
                      {patient.name}
                    </Link>
                  )}
                </h2>
                <span className={`badge badge-sm ${STANDING_CLASS[patient.standing]}`}>{t(`doctor.standing.${patient.standing}`)}</span>
              </div>
              {patient.email ? <p className="text-base-content/70">{patient.email}</p> : null}
              <p>{t("doctor.lastConsultation", { date: formatDay(patient.lastConsultationAt, i18n.language) })}</p>
              <p>{t("doctor.patientCounts", { count: patient.total, ongoing: patient.ongoing, completed: patient.completed })}</p>
              <p className="text-base-content/80">
                {patient.latestDiagnosis ? t("doctor.latestDiagnosis", { diagnosis: patient.latestDiagnosis }) : t("doctor.noDiagnosisYet")}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
