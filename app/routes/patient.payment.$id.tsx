import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

import { DoctorCardView } from "~/components/doctor-card";
import { FormAlert, SubmitButton } from "~/components/form-basics";
import { PaymentCountdown } from "~/components/payment-countdown";
import { useConsultationStatus } from "~/components/realtime/use-consultation-status";
import { birrText, CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { expirePayment } from "~/server/consultations/expire-payment.server";
import { profileName } from "~/server/db/profiles.server";
import { doctorCard as doctorCardOf } from "~/server/doctor-card.server";
import { readFormData } from "~/server/form-body.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { isTxRef, newTxRef, startPayment } from "~/server/payments/start-payment.server";
import { redirectWithToast } from "~/server/toast.server";

const PAY_INTENT = "pay";

// Patients: where a matched request is paid for within the window: Pay records the attempt and goes to
// the provider's checkout (Chapa, or the local sandbox); the provider's confirmation starts the chat.
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
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  return {
    title: pageTitle(t("payment.title")),
    consultationId: consultation.id,
    doctorFirstName: doctor?.firstName ?? "",
    // Who accepted, before the patient pays: worded here.
    doctorCard: await doctorCardOf(context.db, t, language, consultation.doctorId, `/patient/payment/${consultation.id}/doctor-picture`),
    deadline: consultation.paymentDeadlineAt.toISOString(),
    // Handed out with the form: the same form sent twice is one payment.
    txRef: newTxRef(),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  const form = await readFormData(request);
  const txRef = form.get("txRef");
  if (form.get("intent") !== PAY_INTENT || !isTxRef(txRef)) return data({ failure: null, invalid: true }, { status: 400 });
  const origin = new URL(request.url).origin;
  const outcome = await startPayment(
    context.db,
    paymentProvider(context.config, context.cloudflare.env, origin),
    consultation,
    txRef,
    { callbackUrl: `${origin}/payments/webhook`, returnUrlOf: (txRef) => `${origin}/payments/return/${txRef}` },
    new Date(),
  );
  if (outcome.ok) return redirect(outcome.checkoutUrl);
  if (outcome.reason === "provider_failed") return data({ failure: outcome.message, invalid: false }, { status: 502 });
  if (outcome.reason === "already_paid")
    return redirectWithToast(
      `/patient/consultation/${consultation.id}`,
      { kind: "info", title: "payment.alreadyCompleted" },
      context.config,
    );
  return redirectWithToast("/patient/dashboard", { kind: "error", title: "payment.invalidRequest" }, context.config);
}

export default function Payment() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { consultationId, doctorFirstName, doctorCard, deadline, txRef } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const { status } = useConsultationStatus(consultationId, "accepted_awaiting_payment");
  // This page is for a consultation awaiting payment, and only the window closing sends it back to
  // "pending": heard live (with its reason) or found on (re)connecting after it closed.
  const expired = status === "pending";
  useEffect(() => {
    if (status === "in_progress") navigate(`/patient/consultation/${consultationId}`);
  }, [status, consultationId, navigate]);
  // Accepted again after the window closed (perhaps by another doctor): the page loads again, for who
  // accepted now, the new window and a new payment reference, forgetting a failed attempt's answer too
  // (a revalidation would keep it; ADR 0041).
  const closedWhileHere = useRef(false);
  useEffect(() => {
    if (status === "pending") closedWhileHere.current = true;
    if (status === "accepted_awaiting_payment" && closedWhileHere.current) {
      closedWhileHere.current = false;
      navigate(`/patient/payment/${consultationId}`, { replace: true, preventScrollReset: true });
    }
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
          {doctorCard ? <DoctorCardView card={doctorCard} /> : null}
          <p className="text-lg">{t("payment.amount", { amount: birrText(CONSULTATION_FEE_SANTIM) })}</p>
          <p className="text-sm text-base-content/80">{t("payment.timeLeft")}</p>
          <PaymentCountdown deadline={deadline} />
          {failed ? (
            <FormAlert title={t("payment.failedTitle")} message={failed.failure ? t("payment.providerRefused") : t("payment.notCompleted")}>
              {/* The provider's own words, in its language (English), marked so for screen readers. */}
              {failed.failure ? (
                <p className="text-sm">
                  {t("payment.providerSaid")} <span lang="en">{failed.failure}</span>
                </p>
              ) : null}
            </FormAlert>
          ) : null}
          <Form method="post" className="flex flex-col">
            <input type="hidden" name="txRef" value={txRef} />
            <SubmitButton name="intent" value={PAY_INTENT} busyLabel={t("payment.redirecting")}>
              {t("payment.payAmount", { amount: birrText(CONSULTATION_FEE_SANTIM) })}
            </SubmitButton>
          </Form>
          <p className="text-sm text-base-content/80" data-testid="payment-at-zero">
            {t("payment.atZero")}
          </p>
          <p className="text-sm text-base-content/80">{t("payment.refundNote")}</p>
        </>
      )}
      <Link to={`/patient/consultation/${consultationId}`} className="link">
        {t("payment.backToConsultation")}
      </Link>
    </section>
  );
}
