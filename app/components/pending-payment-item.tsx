import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { useConsultationStatus } from "~/components/realtime/use-consultation-status";

/** One consultation waiting for payment; it drops out by itself when its status moves on. */
export function PendingPaymentItem({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  const { status } = useConsultationStatus(id, "accepted_awaiting_payment");
  if (status !== "accepted_awaiting_payment") return null;
  return (
    <li className="flex items-center justify-between gap-2" data-testid="pending-payment">
      <span className="line-clamp-1 text-sm">{title}</span>
      <Link to={`/patient/payment/${id}`} className="btn btn-primary btn-xs">
        {t("payment.pay")}
      </Link>
    </li>
  );
}
