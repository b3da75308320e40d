import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

import { PaymentCountdown } from "~/components/payment-countdown";
import { useConsultationStatus } from "~/components/realtime/use-consultation-status";
import { CONSULTATION_FEE_ETB } from "~/domain/constants";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { expirePayment } from "~/server/consultations/expire-payment.server";
import { profileName } from "~/server/db/profiles.server";
import { redirectWithToast } from "~/server/toast.server";

// Patients: where a matched request is paid for within the window. Payment itself (Chapa and the local
// sandbox) arrives with the payments issue; this page already states the amount and the live deadline.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  // The room's alarm closes the window on time; should it be late, the first look closes it too.
  if ((await expirePayment(context.cloudflare.env, consultation.id, new Date())).kind === "expired") {
    throw await redirectWithToast(
      "/patient/dashboard",
      { kind: "info", title: "payment.expiredTitle", description: "payment.expiredBody" },
      context.config,
    );
  }
  if (consultation.status === "in_progress" || consultation.status === "completed") {
    throw await redirectWithToast(
      `/patient/consultation/${consultation.id}`,
      { kind: "info", title: "payment.alreadyCompleted" },
      context.config,
    );
  }
  if (consultation.status !== "accepted_awaiting_payment" || !consultation.paymentDeadlineAt || !consultation.doctorId) {
    throw await redirectWithToast("/patient/dashboard", { kind: "error", title: "payment.invalidRequest" }, context.config);
  }
  const doctor = await profileName(context.db, consultation.doctorId);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("payment.title")),
    consultationId: consultation.id,
    doctorFirstName: doctor?.firstName ?? "",
    deadline: consultation.paymentDeadlineAt.toISOString(),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function Payment() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { consultationId, doctorFirstName, deadline } = useLoaderData<typeof loader>();
  const { status, reason } = useConsultationStatus(consultationId, "accepted_awaiting_payment");
  const expired = status === "pending" && reason === "payment_expired";
  useEffect(() => {
    if (status === "in_progress") navigate(`/patient/consultation/${consultationId}`);
  }, [status, consultationId, navigate]);
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8 text-center" data-testid="payment-page">
      <h1 className="text-2xl font-bold">{t("payment.title")}</h1>
      {expired ? (
        <div role="alert" className="alert alert-warning flex flex-col">
          <p className="font-bold">{t("payment.expiredTitle")}</p>
          <p>{t("payment.expiredBody")}</p>
        </div>
      ) : (
        <>
          <p>{t("payment.doctorAccepted", { name: doctorFirstName })}</p>
          <p className="text-lg">{t("payment.amount", { amount: CONSULTATION_FEE_ETB })}</p>
          <p className="text-sm text-base-content/80">{t("payment.timeLeft")}</p>
          <PaymentCountdown deadline={deadline} />
          <p className="text-sm text-base-content/80" data-testid="payment-at-zero">
            {t("payment.atZero")}
          </p>
        </>
      )}
      <Link to={`/patient/consultation/${consultationId}`} className="link">
        {t("payment.backToConsultation")}
      </Link>
    </section>
  );
}
