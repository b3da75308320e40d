import { useTranslation } from "react-i18next";

import { PriorityBadge } from "~/components/consultation-badges";
import { useNow } from "~/components/use-now";
import { formatConsultationId } from "~/domain/constants";
import type { RequestSummary } from "~/realtime/protocol";

/**
 * What a doctor needs to pick a request: priority, whether it asked for them (or follows up their own
 * consultation), how long it has waited, and from whom.
 */
export function RequestLine({ request, doctorCode }: { request: RequestSummary; doctorCode: string | null }) {
  const { t, i18n } = useTranslation();
  const triage = i18n.language === "am" ? request.triage.am : request.triage.en;
  const minutes = Math.max(0, Math.floor((useNow() - request.waitingSince) / 60_000));
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <PriorityBadge priority={request.priority} />
        {doctorCode && request.requestedDoctorCode === doctorCode ? (
          <span className="badge badge-accent badge-sm" data-testid="asked-for-you">
            {t("doctor.requests.forYou")}
          </span>
        ) : null}
        {request.followUpOf ? (
          <span className="badge badge-info badge-sm" data-testid="follow-up-of-yours">
            {t("followUp.ofYours", { id: formatConsultationId(request.followUpOf) })}
          </span>
        ) : null}
        {/* The minute may turn between the server's render and the browser's: the browser's count wins. */}
        <span className="text-xs text-base-content/80" suppressHydrationWarning>
          {t("doctor.requests.waiting", { minutes })}
        </span>
      </div>
      {triage ? (
        <p className="text-xs font-semibold break-words" data-testid="triage-line">
          {triage}
        </p>
      ) : null}
      <p className="line-clamp-2 text-sm font-medium break-words">{request.title}</p>
      <p className="text-xs text-base-content/80">
        {t("doctor.requests.from", { name: request.patientFirstName, count: request.photoCount })}
      </p>
    </div>
  );
}
