import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { PaymentCountdown } from "~/components/payment-countdown";
import { useConsultationStatus } from "~/components/realtime/use-consultation-status";

/** One consultation waiting for payment, with the time left; it drops out by itself when its status moves on. */
export function PendingPaymentItem({ id, title, deadline }: { id: string; title: string; deadline: string }) {
  const { t } = useTranslation();
  const { status } = useConsultationStatus(id, "accepted_awaiting_payment");
  if (status !== "accepted_awaiting_payment") return null;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2" data-testid="pending-payment">
      <span className="line-clamp-1 min-w-0 flex-1 text-sm">{title}</span>
      <span className="flex items-center gap-2 text-sm">
        <span className="sr-only">{t("payment.payBy")}</span>
        <PaymentCountdown deadline={deadline} className="font-mono font-bold" />
        <Link to={`/patient/payment/${id}`} className="btn btn-primary btn-xs">
          {t("payment.pay")}
        </Link>
      </span>
    </li>
  );
}
