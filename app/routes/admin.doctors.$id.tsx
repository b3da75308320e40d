import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { EditDoctorForm } from "~/components/admin/edit-doctor-form";
import { DoctorStatusBadge, PersonName, useAdminDate } from "~/components/admin/user-list";
import { SubmitButton } from "~/components/form-basics";
import { DOCTOR_STATUS_INTENTS, type DoctorStatusIntent } from "~/domain/staff-intents";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadDoctorForAdmin } from "~/server/admin/doctors.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { spokenLanguages } from "~/server/doctor-card.server";

import { handleDoctorAction } from "./admin.doctors.$id.server";

// One doctor for an admin: their details and files, the edit form, and activation or deactivation
// behind a confirmation (a page state, `?confirm=`, so it works without JavaScript too).
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request, params } = args;
  const doctor = await loadDoctorForAdmin(context.db, params.id);
  const asked = new URL(request.url).searchParams.get("confirm");
  const confirm = (DOCTOR_STATUS_INTENTS as readonly string[]).includes(asked ?? "") ? (asked as DoctorStatusIntent) : null;
  const t = await getTranslator(request);
  return {
    title: pageTitle(`${doctor.firstName ?? ""} ${doctor.lastName ?? ""} · ${t("admin.doctors.title")}`),
    doctor,
    confirm,
    // Worded here (as on the patients' card): the admin pages ship no text for it.
    languages: t("cardForPatients.adminLanguages", { languages: spokenLanguages(t, doctor.consultationLanguages) }),
  };
}

export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  return handleDoctorAction(args.context, args.request, admin, args.params.id);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function AdminDoctor() {
  const { t } = useTranslation();
  const date = useAdminDate();
  const { doctor, confirm, languages } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const name = `${doctor.firstName ?? ""} ${doctor.lastName ?? ""}`.trim();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
      <Link to="/admin/doctors" className="link self-start">
        {t("admin.doctors.back")}
      </Link>
      <div className="flex flex-wrap items-center gap-4">
        {doctor.pictureVersion !== null ? (
          <img
            src={`/admin/doctors/${doctor.id}/picture?v=${doctor.pictureVersion}`}
            alt={t("admin.doctors.pictureAlt", { name })}
            className="h-20 w-20 rounded-full border border-base-300 object-cover"
            data-testid="doctor-picture"
          />
        ) : null}
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-2xl font-bold break-words">
            <PersonName firstName={doctor.firstName} lastName={doctor.lastName} />
          </h1>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <DoctorStatusBadge status={doctor.status} />
            <span>{t("admin.doctors.code", { code: doctor.doctorCode })}</span>
          </div>
        </div>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        {doctor.pictureVersion === null ? <p>{t("admin.doctors.noPicture")}</p> : null}
        <p>
          {doctor.experienceYears === null
            ? t("admin.doctors.experienceUnknown")
            : t("admin.doctors.experience", { count: doctor.experienceYears })}
        </p>
        <p data-testid="doctor-languages">{languages}</p>
        <p>
          {doctor.licenceNumber && doctor.licenceExpiresOn
            ? t("admin.doctors.licence", { number: doctor.licenceNumber, date: date(doctor.licenceExpiresOn) })
            : t("admin.doctors.noLicence")}
        </p>
        {doctor.hasLicenceFile ? (
          <a href={`/admin/doctors/${doctor.id}/licence`} className="link self-start" target="_blank" rel="noreferrer">
            {t("admin.doctors.viewLicence")}
          </a>
        ) : null}
        <p className="text-base-content/80">{t("admin.users.joined", { date: date(doctor.joinedAt) })}</p>
      </div>
      <StatusSection id={doctor.id} name={name} status={doctor.status} confirm={confirm} />
      <EditDoctorForm doctor={doctor} lastResult={answer?.result} />
    </section>
  );
}

function StatusSection({
  id,
  name,
  status,
  confirm,
}: {
  id: string;
  name: string;
  status: "active" | "inactive";
  confirm: DoctorStatusIntent | null;
}) {
  const { t } = useTranslation();
  const next: DoctorStatusIntent = status === "active" ? "deactivate" : "activate";
  return (
    <section aria-labelledby="doctor-status" className="card border border-base-300">
      <div className="card-body gap-3 p-5">
        <h2 id="doctor-status" className="card-title">
          {t("admin.doctors.statusTitle")}
        </h2>
        {confirm === next ? (
          <Form method="post" className="flex flex-col gap-3" data-testid="confirm-status">
            <p role="alert">
              {next === "deactivate" ? t("admin.doctors.confirmDeactivate", { name }) : t("admin.doctors.confirmActivate", { name })}
            </p>
            <div className="flex flex-wrap gap-2">
              <SubmitButton name="intent" value={next} className={`btn btn-sm ${next === "deactivate" ? "btn-error" : "btn-primary"}`}>
                {next === "deactivate" ? t("admin.doctors.yesDeactivate") : t("admin.doctors.yesActivate")}
              </SubmitButton>
              <Link to={`/admin/doctors/${id}`} className="btn btn-sm btn-ghost">
                {t("admin.doctors.cancel")}
              </Link>
            </div>
          </Form>
        ) : (
          <Link to={`?confirm=${next}`} className="btn btn-sm btn-outline self-start" preventScrollReset>
            {next === "deactivate" ? t("admin.doctors.deactivate") : t("admin.doctors.activate")}
          </Link>
        )}
      </div>
    </section>
  );
}
