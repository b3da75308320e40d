import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ConsultationList } from "~/components/consultation-list";
import { WaitingRequests } from "~/components/doctor/waiting-requests";
import { StatCard } from "~/components/stat-card";
import { isActiveStatus } from "~/domain/consultation-status";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { doctorConsultations, doctorFigures } from "~/server/db/consultation-lists.server";
import { shownName } from "~/server/db/profiles.server";
import { doctorCodeOf } from "~/server/db/requests.server";
import { waitingRequestsFor } from "~/server/waiting-requests.server";

/** Midnight in Addis Ababa (UTC+3, no daylight saving), for "completed today". */
function startOfTodayInEthiopia(now: Date) {
  const offsetMs = 3 * 60 * 60_000;
  const local = new Date(now.getTime() + offsetMs);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offsetMs);
}

// Active doctors: their figures, their active consultations, and the requests waiting for them (follow-ups
// kept for another doctor for now are not among them).
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const t = await getTranslator(request);
  const [figures, mine, waiting, doctorCode] = await Promise.all([
    doctorFigures(context.db, doctor.userId, startOfTodayInEthiopia(new Date())),
    doctorConsultations(context.db, doctor.userId),
    waitingRequestsFor(context.db, doctor.userId, new Date()),
    doctorCodeOf(context.db, doctor.userId),
  ]);
  const active = mine.filter((row) => isActiveStatus(row.status));
  return {
    title: pageTitle(t("dashboard.title")),
    firstName: doctor.firstName ?? "",
    figures,
    active: active.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      priority: row.priority,
      createdAt: row.createdAt.toISOString(),
      subtitle: shownName(t, { firstName: row.patientFirstName, lastName: row.patientLastName, closedAt: row.patientClosedAt }),
    })),
    waiting,
    doctorCode,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function DoctorDashboard() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-5 px-4 py-6">
      <h1 className="text-2xl font-bold" data-testid="dashboard-greeting">
        {t("doctor.greeting", { name: data.firstName })}
      </h1>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <StatCard label={t("doctor.figures.total")} value={data.figures.total} testId="figure-total" />
        <StatCard label={t("doctor.figures.completedToday")} value={data.figures.completedToday} testId="figure-completed-today" />
        <StatCard label={t("doctor.figures.active")} value={data.figures.active} testId="figure-active" />
      </div>
      <section className="flex flex-col gap-2">
        <h2 className="text-xl font-bold">{t("doctor.activeConsultations")}</h2>
        <ConsultationList items={data.active} hrefFor={(id) => `/doctor/consultation/${id}`} empty={t("doctor.noActive")} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-xl font-bold">{t("doctor.requests.title")}</h2>
        <WaitingRequests initial={data.waiting} doctorCode={data.doctorCode} />
      </section>
      <div className="flex flex-wrap gap-3 text-sm">
        <Link to="/doctor/consultations" className="link">
          {t("doctor.allConsultations")}
        </Link>
        <Link to="/doctor/patients" className="link">
          {t("doctor.myPatients")}
        </Link>
        <Link to="/doctor/earnings" className="link">
          {t("doctor.earningsLink")}
        </Link>
      </div>
    </section>
  );
}
