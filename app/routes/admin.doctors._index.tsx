import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { AdminListPage, SearchField, SearchForm } from "~/components/admin/list-page";
import { DoctorStatusBadge, PersonName, useAdminDate } from "~/components/admin/user-list";
import { pageRequest, searchText } from "~/domain/paging";
import { DEFAULT_DOCTOR_SPECIALTY } from "~/domain/roles";
import { getTranslator, pageTitle } from "~/i18n.server";
import { searchDoctors } from "~/server/admin/doctors.server";
import { requireAdmin } from "~/server/auth/guards.server";

// Every doctor, searched on the server by name, email, phone, specialty or code, a page at a time.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const params = new URL(request.url).searchParams;
  const q = searchText(params);
  const doctors = await searchDoctors(context.db, q, pageRequest(params));
  const t = await getTranslator(request);
  return { title: pageTitle(t("admin.doctors.title")), q, doctors };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AdminDoctors() {
  const { t } = useTranslation();
  const date = useAdminDate();
  const { q, doctors } = useLoaderData<typeof loader>();
  return (
    <AdminListPage
      title={t("admin.doctors.title")}
      action={
        <Link to="/admin/dashboard#add-doctor" className="btn btn-primary btn-sm">
          {t("admin.dashboard.addDoctor")}
        </Link>
      }
      search={
        <SearchForm columns="sm:grid-cols-[1fr_auto]" submitLabel={t("admin.search.submit")}>
          <SearchField label={t("admin.doctors.searchLabel")} name="q" defaultValue={q} />
        </SearchForm>
      }
      empty={doctors.rows.length > 0 ? null : q ? t("admin.search.noResults") : t("admin.doctors.empty")}
      paging={doctors}
    >
      <ul className="grid gap-3 md:grid-cols-2" data-testid="doctor-list">
        {doctors.rows.map((doctor) => (
          <li key={doctor.id} className="card border border-base-300" data-testid="doctor-row">
            <div className="card-body gap-1 p-4 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="font-bold">
                  <Link to={`/admin/doctors/${doctor.id}`} className="link">
                    <PersonName firstName={doctor.firstName} lastName={doctor.lastName} />
                  </Link>
                </h2>
                <DoctorStatusBadge status={doctor.status} />
              </div>
              <p>
                {doctor.specialty === DEFAULT_DOCTOR_SPECIALTY ? t("admin.doctors.defaultSpecialty") : doctor.specialty} ·{" "}
                {t("admin.doctors.code", { code: doctor.doctorCode })}
              </p>
              <p className="break-all">{doctor.email}</p>
              <p>{doctor.phone ?? t("admin.users.noPhone")}</p>
              <p>
                {doctor.experienceYears === null
                  ? t("admin.doctors.experienceUnknown")
                  : t("admin.doctors.experience", { count: doctor.experienceYears })}
              </p>
              <p>
                {doctor.licenceNumber && doctor.licenceExpiresOn
                  ? t("admin.doctors.licence", { number: doctor.licenceNumber, date: date(doctor.licenceExpiresOn) })
                  : t("admin.doctors.noLicence")}
              </p>
              <div className="card-actions mt-2">
                <Link to={`/admin/doctors/${doctor.id}`} className="btn btn-sm btn-outline">
                  {t("admin.doctors.edit")}
                </Link>
                <Link
                  to={`/admin/doctors/${doctor.id}?confirm=${doctor.status === "active" ? "deactivate" : "activate"}`}
                  className="btn btn-sm btn-outline"
                >
                  {doctor.status === "active" ? t("admin.doctors.deactivate") : t("admin.doctors.activate")}
                </Link>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </AdminListPage>
  );
}
