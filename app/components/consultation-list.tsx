import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { PriorityBadge, StatusBadge } from "~/components/consultation-badges";
import { formatConsultationId } from "~/domain/constants";
import type { ConsultationStatus, Priority } from "~/domain/consultation-status";
import { formatDay } from "~/domain/dates";

export interface ConsultationListItem {
  id: string;
  title: string;
  status: ConsultationStatus;
  priority: Priority;
  createdAt: string;
  /** Cancelled because a doctor declined it. */
  declined?: boolean;
  subtitle?: string;
}

/** Consultations as a list of links, each with its short id, status, priority and date. */
export function ConsultationList({
  items,
  hrefFor,
  empty,
}: {
  items: ConsultationListItem[];
  hrefFor: (id: string) => string;
  empty: string;
}) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <p className="text-sm text-base-content/70">{empty}</p>;
  return (
    <ul className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300" data-testid="consultation-list">
      {items.map((item) => (
        <li key={item.id}>
          <Link to={hrefFor(item.id)} className="flex flex-col gap-1 p-3 hover:bg-base-200">
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className="font-mono text-base-content/70">#{formatConsultationId(item.id)}</span>
              <StatusBadge status={item.status} declined={item.declined} />
              <PriorityBadge priority={item.priority} />
              <span className="text-base-content/70">{formatDay(item.createdAt, i18n.language)}</span>
            </div>
            <p className="line-clamp-2 font-medium">{item.title || t("consultation.untitled")}</p>
            {item.subtitle ? <p className="text-xs text-base-content/70">{item.subtitle}</p> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
