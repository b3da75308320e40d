import { useTranslation } from "react-i18next";

import type { ConsultationStatus, Priority } from "~/domain/consultation-status";

// Urgent red, high orange, normal blue (spec). daisyUI has no orange: Tailwind's orange-700 reads 5.2:1 with white.
const PRIORITY_CLASS: Record<Priority, string> = {
  urgent: "badge-error",
  high: "border-orange-700 bg-orange-700 text-white",
  normal: "badge-info",
};
const STATUS_CLASS: Record<ConsultationStatus, string> = {
  awaiting_assets: "badge-ghost",
  pending: "badge-warning badge-outline",
  accepted_awaiting_payment: "badge-info badge-outline",
  in_progress: "badge-primary",
  completed: "badge-success",
  cancelled: "badge-ghost",
};

export function PriorityBadge({ priority }: { priority: Priority }) {
  const { t } = useTranslation();
  return (
    <span className={`badge badge-sm ${PRIORITY_CLASS[priority]}`} data-priority={priority}>
      {t(`priority.${priority}`)}
    </span>
  );
}

/** The status; a cancelled request a doctor declined says "Declined". */
export function StatusBadge({ status, declined = false }: { status: ConsultationStatus; declined?: boolean }) {
  const { t } = useTranslation();
  const isDeclined = status === "cancelled" && declined;
  return (
    <span className={`badge badge-sm ${STATUS_CLASS[status]}`} data-status={isDeclined ? "declined" : status}>
      {isDeclined ? t("status.declined") : t(`status.${status}`)}
    </span>
  );
}
