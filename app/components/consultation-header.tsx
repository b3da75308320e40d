import type { ReactNode } from "react";

import { PriorityBadge, StatusBadge } from "~/components/consultation-badges";
import { formatConsultationId } from "~/domain/constants";
import type { ConsultationStatus, Priority } from "~/domain/consultation-status";

/** The top of a consultation page: badges, short id, title, and a line about who it is with. */
export function ConsultationHeader({
  id,
  title,
  status,
  priority,
  declined = false,
  children,
}: {
  id: string;
  title: string;
  status: ConsultationStatus;
  priority: Priority;
  /** Cancelled because a doctor declined it (its badge says so). */
  declined?: boolean;
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <PriorityBadge priority={priority} />
        <StatusBadge status={status} declined={declined} />
        <span className="text-xs text-base-content/70">#{formatConsultationId(id)}</span>
      </div>
      <h1 className="text-2xl font-bold" data-testid="consultation-title">
        {title}
      </h1>
      {children}
    </header>
  );
}
