import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { DOCTOR_RESPONSE_PROMISE_MINUTES, PATIENT_TO_PAYMENT_AFTER_MATCH_MS } from "~/domain/constants";
import { DECISION_INTENTS } from "~/domain/consultation-decisions";
import { startAgainPath } from "~/domain/consultation-decisions";
import type { ConsultationStatus, DeclineReason } from "~/domain/consultation-status";

export interface Decline {
  reason: DeclineReason;
  note: string | null;
}

type PanelState = "looking" | "found" | "declined" | "withdrawn";

function panelState(status: ConsultationStatus, decline: Decline | null): PanelState | null {
  if (status === "pending") return "looking";
  if (status === "accepted_awaiting_payment") return "found";
  if (status === "cancelled") return decline ? "declined" : "withdrawn";
  return null;
}

/**
 * What a patient sees of a request until it is paid for: looking for a doctor (with a way to withdraw
 * it), found (then on to payment), or declined and why, or withdrawn, each with a way to start again.
 */
export function RequestStatusPanel({
  consultationId,
  status,
  decline,
  goToPaymentWhenFound,
}: {
  consultationId: string;
  status: ConsultationStatus;
  decline: Decline | null;
  /** A doctor accepted while the patient watched: after a moment the page moves on to payment. */
  goToPaymentWhenFound: boolean;
}) {
  const { t } = useTranslation();
  const state = panelState(status, decline);
  const navigate = useNavigate();
  const found = state === "found" && goToPaymentWhenFound;
  useEffect(() => {
    if (!found) return;
    const timer = window.setTimeout(() => navigate(`/patient/payment/${consultationId}`), PATIENT_TO_PAYMENT_AFTER_MATCH_MS);
    return () => window.clearTimeout(timer);
  }, [found, consultationId, navigate]);
  if (!state || (state === "found" && !goToPaymentWhenFound)) return null;
  return (
    <div className="card border border-base-300" data-testid="waiting-screen" data-state={state} aria-live="polite">
      <div className="card-body items-center gap-3 p-6 text-center">
        {state === "looking" ? <Looking consultationId={consultationId} /> : null}
        {state === "found" ? (
          <>
            <p className="text-4xl" aria-hidden="true">
              ✓
            </p>
            <h2 className="text-xl font-bold">{t("request.waiting.foundTitle")}</h2>
            <p>{t("request.waiting.foundBody")}</p>
          </>
        ) : null}
        {state === "declined" && decline ? <Declined consultationId={consultationId} decline={decline} /> : null}
        {state === "withdrawn" ? (
          <>
            <h2 className="text-xl font-bold">{t("request.withdrawn.title")}</h2>
            <p>{t("request.withdrawn.body")}</p>
            <StartAgain href="/patient/new-consultation" />
          </>
        ) : null}
        <Link to="/patient/dashboard" className="btn btn-ghost btn-sm">
          {t("request.waiting.backToDashboard")}
        </Link>
      </div>
    </div>
  );
}

function Looking({ consultationId }: { consultationId: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <>
      <span className="loading loading-dots loading-lg text-primary" aria-hidden="true" />
      <h2 className="text-xl font-bold">{t("request.waiting.lookingTitle")}</h2>
      <p>{t("request.waiting.lookingBody", { minutes: DOCTOR_RESPONSE_PROMISE_MINUTES })}</p>
      <noscript>
        <a href={`${location.pathname}${location.search}`} className="link">
          {t("request.waiting.refresh")}
        </a>
      </noscript>
      <WithdrawForm consultationId={consultationId} />
    </>
  );
}

function Declined({ consultationId, decline }: { consultationId: string; decline: Decline }) {
  const { t } = useTranslation();
  const again = startAgainPath(consultationId, decline.reason);
  return (
    <>
      <h2 className="text-xl font-bold">{t("request.declined.title")}</h2>
      <p data-testid="decline-reason">{t(`consultation.declineReasons.${decline.reason}`)}</p>
      {decline.note ? (
        <figure className="w-full rounded-box bg-base-200 p-3 text-start">
          <figcaption className="text-sm font-medium">{t("request.declined.doctorSaid")}</figcaption>
          <blockquote className="whitespace-pre-line break-words" data-testid="decline-note">
            {decline.note}
          </blockquote>
        </figure>
      ) : null}
      <p className="text-sm text-base-content/80">{t("request.declined.noCharge")}</p>
      <StartAgain href={again} />
    </>
  );
}

function StartAgain({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <Link to={href} className="btn btn-primary" data-testid="start-again">
      {t("patientPages.startNew")}
    </Link>
  );
}

/** Withdrawing asks first: the disclosure holds what happens and the confirming button (no script needed). */
function WithdrawForm({ consultationId }: { consultationId: string }) {
  const { t } = useTranslation();
  return (
    <details className="w-full rounded-box border border-base-300 p-3 text-start" data-testid="withdraw">
      <summary className="cursor-pointer font-medium">{t("request.withdraw.open")}</summary>
      <p className="mt-2 text-sm">{t("request.withdraw.explain")}</p>
      <Form method="post" action={`/patient/consultation/${consultationId}`} className="mt-3">
        <SubmitButton
          name="intent"
          value={DECISION_INTENTS.withdraw}
          className="btn btn-outline btn-error btn-sm"
          busyLabel={t("forms.busy")}
        >
          {t("request.withdraw.confirm")}
        </SubmitButton>
      </Form>
    </details>
  );
}
