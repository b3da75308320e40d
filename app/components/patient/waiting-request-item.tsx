import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { useConsultationStatus } from "~/components/realtime/use-consultation-status";

/** A request on the dashboard that waits for a doctor; it says so live when one accepts or declines it. */
export function WaitingRequestItem({ id, title, minutes }: { id: string; title: string; minutes: number }) {
  const { t } = useTranslation();
  const { status, decline } = useConsultationStatus(id, "pending");
  const link = (
    <Link to={`/patient/consultation/${id}`} className="link">
      {title}
    </Link>
  );
  if (status === "pending")
    return (
      <li data-testid="waiting-request" data-state="waiting">
        {link} <span className="text-base-content/80">{t("patientPages.waited", { minutes })}</span>
      </li>
    );
  if (status === "accepted_awaiting_payment")
    return (
      <li data-testid="waiting-request" data-state="accepted">
        {link}{" "}
        <Link to={`/patient/payment/${id}`} className="link font-semibold">
          {t("patientPages.acceptedPayNow")}
        </Link>
      </li>
    );
  if (status === "cancelled" && decline)
    return (
      <li data-testid="waiting-request" data-state="declined">
        {link} <span className="font-semibold">{t("status.declined")}</span>
        <p className="text-base-content/80">{t(`consultation.declineReasons.${decline.reason}`)}</p>
      </li>
    );
  return null;
}
