import { useTranslation } from "react-i18next";

import type { ConsultationStatus, Priority } from "~/domain/consultation-status";

// Urgent red, high orange, normal blue (spec).
const PRIORITY_CLASS: Record<Priority, string> = { urgent: "badge-error", high: "badge-warning", normal: "badge-info" };
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

export function StatusBadge({ status }: { status: ConsultationStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`badge badge-sm ${STATUS_CLASS[status]}`} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}
