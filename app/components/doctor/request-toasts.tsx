import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import type { RequestSummary } from "~/realtime/protocol";

import { AcceptButton } from "./accept-button";
import { RequestLine } from "./request-line";

/** At most this many request toasts are on screen at once; the rest are counted ("and 4 more"). */
const MAX_SHOWN_TOASTS = 3;

/** A toast for each new request (never dismissed by itself), newest first, stacked to three. */
export function RequestToasts({
  requests,
  doctorCode,
  onDismiss,
  onDismissAll,
  onAccepting,
  onAccepted,
}: {
  requests: RequestSummary[];
  doctorCode: string | null;
  onDismiss: (id: string) => void;
  onDismissAll: () => void;
  onAccepting: (request: RequestSummary) => void;
  onAccepted: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (requests.length === 0) return null;
  const newestFirst = [...requests].reverse();
  const shown = newestFirst.slice(0, MAX_SHOWN_TOASTS);
  const hidden = newestFirst.length - shown.length;
  return (
    <section
      aria-label={t("doctor.requests.newRequests")}
      className="toast toast-bottom toast-end z-50 max-w-[95vw]"
      data-testid="request-toasts"
    >
      {shown.map((request) => (
        <div
          key={request.id}
          role="status"
          className="alert flex w-80 max-w-full flex-col items-stretch gap-2 border border-base-300 bg-base-100 shadow-lg"
          data-testid="request-toast"
        >
          <p className="font-bold">{t("doctor.requests.newRequest")}</p>
          <RequestLine request={request} doctorCode={doctorCode} />
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => onDismiss(request.id)}>
              {t("shell.dismiss")}
            </button>
            <Link to={`/doctor/consultation/${request.id}`} className="btn btn-outline btn-xs">
              {t("doctor.requests.view")}
            </Link>
            <AcceptButton request={request} onAccepting={onAccepting} onAccepted={onAccepted} />
          </div>
        </div>
      ))}
      {hidden > 0 || shown.length > 1 ? (
        <div className="flex w-80 max-w-full items-center justify-between gap-2 rounded-box border border-base-300 bg-base-100 px-3 py-2 shadow-lg">
          <p className="text-sm" data-testid="more-toasts">
            {hidden > 0 ? t("doctor.requests.andMore", { count: hidden }) : null}
          </p>
          <button type="button" className="btn btn-ghost btn-xs" onClick={onDismissAll}>
            {t("doctor.requests.dismissAll")}
          </button>
        </div>
      ) : null}
    </section>
  );
}
