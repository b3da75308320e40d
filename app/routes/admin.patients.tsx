import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { PersonName, useAdminDate } from "~/components/admin/user-list";
import { pageRequest, searchText } from "~/domain/paging";
import { PATIENT_FILTERS, patientFilterOf } from "~/domain/staff-intents";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { searchPatients } from "~/server/admin/patients.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { closedPatientWords } from "~/server/privacy/retention-words.server";

// Every patient, searched on the server by name, email or a doctor they have seen, filtered by where
// their consultations stand, a page at a time.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const q = searchText(params);
  const filter = patientFilterOf(params.get("filter"));
  const found = await searchPatients(context.db, { text: q, filter }, pageRequest(params));
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  // A closed account's lines are worded here (this page ships none of their texts).
  const rows = found.rows.map(({ closedAt, purgeAfter, purgedAt, ...patient }) => ({
    ...patient,
    closed: closedPatientWords(t, language, { closedAt, purgeAfter, purgedAt }),
  }));
  return { title: pageTitle(t("admin.patients.title")), q, filter, patients: { ...found, rows } };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AdminPatients() {
  const { t } = useTranslation();
  const date = useAdminDate();
  const { q, filter, patients } = useLoaderData<typeof loader>();
  return (
    <AdminListPage
      title={t("admin.patients.title")}
      search={
        <SearchForm columns="sm:grid-cols-[1fr_auto_auto]" submitLabel={t("admin.search.filter")}>
          <SearchField label={t("admin.patients.searchLabel")} name="q" defaultValue={q} />
          <select
            name="filter"
            defaultValue={filter ?? ""}
            aria-label={t("admin.patients.filterLabel")}
            className="select select-sm w-full sm:w-auto"
          >
            <option value="">{t("admin.patients.filters.all")}</option>
            {PATIENT_FILTERS.map((item) => (
              <option key={item} value={item}>
                {t(`admin.patients.filters.${item}`)}
              </option>
            ))}
          </select>
        </SearchForm>
      }
      empty={patients.rows.length > 0 ? null : q || filter ? t("admin.search.noResults") : t("admin.patients.empty")}
      paging={patients}
    >
      <ul className="grid gap-3 md:grid-cols-2" data-testid="patient-list">
        {patients.rows.map((patient) => (
          <li key={patient.id} className="card border border-base-300" data-testid="patient-row">
            <div className="card-body gap-1 p-4 text-sm">
              <h2 className="font-bold">
                {patient.closed ? patient.closed.name : <PersonName firstName={patient.firstName} lastName={patient.lastName} />}
              </h2>
              {patient.closed ? (
                <>
                  <p data-testid="patient-closed">{patient.closed.closedOn}</p>
                  <p data-testid="patient-retention">{patient.closed.retention}</p>
                </>
              ) : (
                <>
                  <p className="break-all">{patient.email}</p>
                  <p>{patient.phone ?? t("admin.users.noPhone")}</p>
                </>
              )}
              <p>{t("admin.patients.consultations", { count: patient.consultationCount })}</p>
              <p>{patient.doctorName ? t("admin.patients.doctor", { name: patient.doctorName }) : t("admin.patients.noDoctor")}</p>
              <p className="text-base-content/80">{t("admin.users.joined", { date: date(patient.joinedAt) })}</p>
            </div>
          </li>
        ))}
      </ul>
    </AdminListPage>
  );
}
