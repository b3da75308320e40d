import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import type { RequestSummary } from "~/realtime/protocol";

import { AcceptButton } from "./accept-button";
import { RequestLine } from "./request-line";

/** The bell's open panel: each waiting request with View and Accept (loaded the first time it opens). */
export function RequestsPanel({
  requests,
  doctorCode,
  onView,
  onAccepting,
  onAccepted,
}: {
  requests: RequestSummary[];
  doctorCode: string | null;
  onView: () => void;
  onAccepting: (request: RequestSummary) => void;
  onAccepted: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="mb-2 font-bold">{t("doctor.requests.title")}</h2>
      {requests.length === 0 ? <p className="text-sm text-base-content/80">{t("doctor.requests.none")}</p> : null}
      <ul className="flex max-h-96 flex-col gap-3 overflow-y-auto" data-testid="requests-dropdown">
        {requests.map((request) => (
          <li key={request.id} className="flex flex-col gap-2 border-b border-base-300 pb-2">
            <RequestLine request={request} doctorCode={doctorCode} />
            <div className="flex justify-end gap-2">
              <Link to={`/doctor/consultation/${request.id}`} className="btn btn-outline btn-xs" onClick={onView}>
                {t("doctor.requests.view")}
              </Link>
              <AcceptButton request={request} onAccepting={onAccepting} onAccepted={onAccepted} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
