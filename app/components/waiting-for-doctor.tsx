import { Link, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

import { useConsultationStatus } from "~/components/realtime/use-consultation-status";
import { DOCTOR_RESPONSE_PROMISE_MINUTES, PATIENT_TO_PAYMENT_AFTER_MATCH_MS } from "~/domain/constants";
import type { ConsultationStatus } from "~/domain/consultation-status";

/** Shown while a request looks for a doctor; when one accepts, it says so and moves on to payment. */
export function WaitingForDoctor({ consultationId, initialStatus }: { consultationId: string; initialStatus: ConsultationStatus }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { status } = useConsultationStatus(consultationId, initialStatus);
  const found = status === "accepted_awaiting_payment";
  useEffect(() => {
    if (!found) return;
    const timer = window.setTimeout(() => navigate(`/patient/payment/${consultationId}`), PATIENT_TO_PAYMENT_AFTER_MATCH_MS);
    return () => window.clearTimeout(timer);
  }, [found, consultationId, navigate]);
  return (
    <div className="card border border-base-300" data-testid="waiting-screen" data-state={found ? "found" : "looking"} aria-live="polite">
      <div className="card-body items-center gap-3 p-6 text-center">
        {found ? (
          <>
            <p className="text-4xl" aria-hidden="true">
              ✓
            </p>
            <h2 className="text-xl font-bold">{t("request.waiting.foundTitle")}</h2>
            <p>{t("request.waiting.foundBody")}</p>
          </>
        ) : (
          <>
            <span className="loading loading-dots loading-lg text-primary" aria-hidden="true" />
            <h2 className="text-xl font-bold">{t("request.waiting.lookingTitle")}</h2>
            <p>{t("request.waiting.lookingBody", { minutes: DOCTOR_RESPONSE_PROMISE_MINUTES })}</p>
            <noscript>
              <Link to=".?step=3" reloadDocument className="link">
                {t("request.waiting.refresh")}
              </Link>
            </noscript>
          </>
        )}
        <Link to="/patient/dashboard" className="btn btn-ghost btn-sm">
          {t("request.waiting.backToDashboard")}
        </Link>
      </div>
    </div>
  );
}
