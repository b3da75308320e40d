import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { useLobbyQueue } from "~/components/realtime/lobby-queue";
import type { RequestSummary } from "~/realtime/protocol";

import { RequestLine } from "./request-line";

/**
 * The requests waiting for any doctor, kept live by the page's one lobby socket (the header's bell
 * holds it): what the server rendered until the lobby speaks, then the lobby's queue.
 */
export function WaitingRequests({ initial, doctorCode }: { initial: RequestSummary[]; doctorCode: string | null }) {
  const { t } = useTranslation();
  const requests = useLobbyQueue() ?? initial;
  if (requests.length === 0) return <p className="text-sm text-base-content/80">{t("doctor.requests.none")}</p>;
  return (
    <ul className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300" data-testid="waiting-requests">
      {requests.map((request) => (
        <li key={request.id} className="flex flex-wrap items-center justify-between gap-2 p-3" data-testid="waiting-request">
          <RequestLine request={request} doctorCode={doctorCode} />
          <Link to={`/doctor/consultation/${request.id}`} className="btn btn-outline btn-sm">
            {t("doctor.requests.view")}
            <span className="sr-only">: {request.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
