import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { PhotoViewer } from "~/components/photo-viewer";
import { WaitingForDoctor } from "~/components/waiting-for-doctor";
import { formatConsultationId } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { profileName } from "~/server/db/profiles.server";
import { listPhotos } from "~/server/files.server";

// Patients: one of their own consultations (anyone else's id is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status === "awaiting_assets") throw new Response("Not Found", { status: 404 });
  const doctor = await profileName(context.db, consultation.doctorId);
  const t = await getTranslator(request);
  return {
    title: pageTitle(`${t("consultation.title")} ${formatConsultationId(consultation.id)}`),
    consultation: consultationForPage(consultation),
    doctorFirstName: doctor?.firstName ?? null,
    photoIds: (await listPhotos(context.db, consultation.id)).map((photo) => photo.id),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function PatientConsultation() {
  const { t } = useTranslation();
  const { consultation, doctorFirstName, photoIds } = useLoaderData<typeof loader>();
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
      <Link to="/patient/dashboard" className="link text-sm">
        {t("request.waiting.backToDashboard")}
      </Link>
      <ConsultationHeader id={consultation.id} title={consultation.title} status={consultation.status} priority={consultation.priority}>
        {doctorFirstName ? <p className="text-sm">{t("consultation.withDoctor", { name: doctorFirstName })}</p> : null}
      </ConsultationHeader>
      {consultation.status === "pending" ? <WaitingForDoctor consultationId={consultation.id} initialStatus={consultation.status} /> : null}
      {consultation.status === "accepted_awaiting_payment" ? (
        <Link to={`/patient/payment/${consultation.id}`} className="btn btn-primary">
          {t("payment.goToPayment")}
        </Link>
      ) : null}
      <ConsultationSections
        mainConcern={consultation.mainConcern}
        medicalHistory={consultation.medicalHistory}
        additionalComments={consultation.additionalComments}
      />
      <section className="flex flex-col gap-2">
        <h2 className="font-bold">{t("consultation.photos")}</h2>
        <PhotoViewer photoIds={photoIds} />
      </section>
    </article>
  );
}
