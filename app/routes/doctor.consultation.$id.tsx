import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { eq } from "drizzle-orm";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { FormAlert, SubmitButton } from "~/components/form-fields";
import { PhotoViewer } from "~/components/photo-viewer";
import { useConsultationStatus } from "~/components/realtime/use-consultation-status";
import { useStillWaiting } from "~/components/realtime/use-still-waiting";
import { profiles } from "~/db/schema";
import { ACCEPT_CONFIRMATION_SHOWN_MS, formatConsultationId } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { acceptConsultation, declineConsultation } from "~/server/consultation-decisions.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { listPhotos } from "~/server/files.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

// Active doctors: a waiting request (any doctor) or one of their own consultations. Reading it is audited.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, doctor, params.id ?? "");
  const patient = await context.db.query.profiles.findFirst({
    columns: { firstName: true, lastName: true },
    where: eq(profiles.userId, consultation.patientId),
  });
  const t = await getTranslator(request);
  return {
    title: pageTitle(`${t("consultation.title")} ${formatConsultationId(consultation.id)}`),
    consultation: consultationForPage(consultation),
    patientName: patient ? `${patient.firstName} ${consultation.doctorId === doctor.userId ? patient.lastName : ""}`.trim() : "",
    photoIds: (await listPhotos(context.db, consultation.id)).map((photo) => photo.id),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request, params } = args;
  const id = params.id ?? "";
  const intent = (await readFormData(request)).get("intent");
  const t = await getTranslator(request);
  const messages = {
    already_taken: t("consultation.errors.alreadyAccepted"),
    not_found: t("consultation.errors.notFound"),
    not_permitted: t("consultation.errors.acceptFailed"),
  };
  if (intent === "decline") {
    const outcome = await declineConsultation(context, request, doctor, id);
    if (outcome.ok) return redirectWithToast("/doctor/consultations", { kind: "success", title: "consultation.declined" }, context.config);
    return data(
      { outcome: outcome.reason, message: outcome.reason === "not_found" ? messages.not_found : t("consultation.errors.declineFailed") },
      { status: outcome.reason === "not_found" ? 404 : 409 },
    );
  }
  if (intent !== "accept") return data({ outcome: "not_permitted" as const, message: messages.not_permitted }, { status: 400 });
  const outcome = await acceptConsultation(context, request, doctor, id);
  if (outcome.ok) return data({ outcome: "accepted" as const, message: t("consultation.acceptedBody") });
  return data({ outcome: outcome.reason, message: messages[outcome.reason] }, { status: outcome.reason === "not_found" ? 404 : 409 });
}

export default function DoctorConsultation() {
  const { t } = useTranslation();
  const { consultation, patientName, photoIds } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The room admits only the patient and the assigned doctor, so this page joins it once the request is this doctor's.
  const { status } = useConsultationStatus(consultation.id, consultation.status, { enabled: consultation.status !== "pending" });
  // Until this doctor accepts, the room is not theirs to join; the lobby says when the request is taken.
  const stillWaiting = useStillWaiting(consultation.id, consultation.status === "pending");
  // The confirmation shows for a few seconds after this page's own accept.
  const [confirmationDoneFor, setConfirmationDoneFor] = useState<typeof actionData>(undefined);
  const justAccepted = actionData?.outcome === "accepted" && confirmationDoneFor !== actionData;
  useEffect(() => {
    if (actionData?.outcome !== "accepted") return;
    const timer = window.setTimeout(() => setConfirmationDoneFor(actionData), ACCEPT_CONFIRMATION_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [actionData]);
  const acceptedHere = actionData?.outcome === "accepted";
  const currentStatus = acceptedHere && status === "pending" ? "accepted_awaiting_payment" : status;
  const takenElsewhere = currentStatus === "pending" && !stillWaiting && !acceptedHere;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
      <Link to="/doctor/consultations" className="link text-sm">
        {t("consultation.backToList")}
      </Link>
      <ConsultationHeader id={consultation.id} title={consultation.title} status={currentStatus} priority={consultation.priority}>
        <p className="text-sm text-base-content/80">{t("consultation.patient", { name: patientName })}</p>
      </ConsultationHeader>
      {actionData && actionData.outcome !== "accepted" ? (
        <FormAlert title={t("consultation.errors.title")} message={actionData.message ?? ""} />
      ) : null}
      {takenElsewhere && !actionData ? (
        <FormAlert title={t("consultation.errors.title")} message={t("consultation.errors.alreadyAccepted")} />
      ) : null}
      {justAccepted ? (
        <div role="status" className="alert alert-success" data-testid="accept-confirmation">
          <div>
            <p className="font-bold">{t("consultation.acceptedTitle")}</p>
            <p>{t("consultation.acceptedBody")}</p>
          </div>
        </div>
      ) : currentStatus === "accepted_awaiting_payment" ? (
        <div role="status" className="alert alert-info" data-testid="awaiting-payment">
          {t("consultation.waitingForPayment")}
        </div>
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
      {currentStatus === "pending" && !takenElsewhere ? (
        <Form method="post" className="flex flex-wrap gap-2">
          <SubmitButton name="intent" value="accept" className="btn btn-primary" busyLabel={t("forms.busy")}>
            {t("doctor.requests.accept")}
          </SubmitButton>
          <SubmitButton name="intent" value="decline" className="btn btn-outline" busyLabel={t("forms.busy")}>
            {t("consultation.decline")}
          </SubmitButton>
        </Form>
      ) : null}
    </article>
  );
}
