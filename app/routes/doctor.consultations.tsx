import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ConsultationList } from "~/components/consultation-list";
import { StatCard } from "~/components/stat-card";
import { CONSULTATION_STATUSES, isActiveStatus, isConsultationStatus, isPriority, PRIORITIES } from "~/domain/consultation-status";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { doctorConsultations, type DoctorListFilter } from "~/server/db/consultation-lists.server";
import { shownName } from "~/server/db/profiles.server";

function dayOrUndefined(value: string | null) {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const day = new Date(`${value}T00:00:00+03:00`);
  return Number.isNaN(day.getTime()) ? undefined : day;
}

// Active doctors: their own consultations, searchable and filtered by status, priority and date.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const status = params.get("status");
  const priority = params.get("priority");
  const filter: DoctorListFilter = {
    search: params.get("q")?.trim() || undefined,
    status: isConsultationStatus(status) ? status : undefined,
    priority: isPriority(priority) ? priority : undefined,
    from: dayOrUndefined(params.get("from")),
    to: dayOrUndefined(params.get("to")),
  };
  const t = await getTranslator(request);
  const [rows, all] = await Promise.all([
    doctorConsultations(context.db, doctor.userId, filter),
    doctorConsultations(context.db, doctor.userId),
  ]);
  return {
    title: pageTitle(t("doctor.allConsultations")),
    query: {
      q: params.get("q") ?? "",
      status: filter.status ?? "",
      priority: filter.priority ?? "",
      from: params.get("from") ?? "",
      to: params.get("to") ?? "",
    },
    figures: {
      total: all.length,
      active: all.filter((row) => isActiveStatus(row.status)).length,
      completed: all.filter((row) => row.status === "completed").length,
    },
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      priority: row.priority,
      createdAt: row.createdAt.toISOString(),
      subtitle: shownName(t, { firstName: row.patientFirstName, lastName: row.patientLastName, closedAt: row.patientClosedAt }),
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function DoctorConsultations() {
  const { t } = useTranslation();
  const { query, figures, items } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-bold">{t("doctor.allConsultations")}</h1>
      <div className="grid grid-cols-3 gap-3">
        <StatCard label={t("doctor.figures.total")} value={figures.total} />
        <StatCard label={t("doctor.figures.active")} value={figures.active} />
        <StatCard label={t("doctor.figures.completed")} value={figures.completed} />
      </div>
      <Form method="get" className="grid gap-2 rounded-box border border-base-300 p-3 sm:grid-cols-6" role="search">
        <label className="flex flex-col gap-1 sm:col-span-2">
          <span className="text-sm">{t("doctor.filter.search")}</span>
          <input type="search" name="q" defaultValue={query.q} className="input input-sm w-full" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-sm">{t("doctor.filter.status")}</span>
          <select name="status" defaultValue={query.status} className="select select-sm w-full">
            <option value="">{t("doctor.filter.any")}</option>
            {CONSULTATION_STATUSES.filter((status) => status !== "awaiting_assets").map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-sm">{t("doctor.filter.priority")}</span>
          <select name="priority" defaultValue={query.priority} className="select select-sm w-full">
            <option value="">{t("doctor.filter.any")}</option>
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {t(`priority.${priority}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-sm">{t("doctor.filter.from")}</span>
          <input type="date" name="from" defaultValue={query.from} className="input input-sm w-full" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-sm">{t("doctor.filter.to")}</span>
          <input type="date" name="to" defaultValue={query.to} className="input input-sm w-full" />
        </label>
        <button type="submit" className="btn btn-primary btn-sm sm:col-span-6 sm:justify-self-start">
          {t("doctor.filter.apply")}
        </button>
      </Form>
      <ConsultationList items={items} hrefFor={(id) => `/doctor/consultation/${id}`} empty={t("doctor.filter.noResults")} />
    </section>
  );
}
