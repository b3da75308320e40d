import { useFetcher, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { PriorityBadge } from "~/components/consultation-badges";
import { useLobby } from "~/components/realtime/use-lobby";
import { useNow } from "~/components/use-now";
import {
  DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS,
  DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS,
  formatBadgeCount,
} from "~/domain/constants";
import type { RequestSummary } from "~/domain/room-events";

type AcceptAnswer = { outcome?: "accepted" | "already_taken" | "not_found" | "not_permitted"; message?: string };

/** Accepts a request from the bell or a toast and reports the outcome; the bell does the navigating. */
function AcceptButton({
  request,
  onAccepting,
  onAccepted,
}: {
  request: RequestSummary;
  onAccepting: (request: RequestSummary) => void;
  onAccepted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<AcceptAnswer>();
  const outcome = fetcher.data?.outcome;
  useEffect(() => {
    if (outcome === "accepted") onAccepted(request.id);
  }, [outcome, onAccepted, request.id]);
  if (outcome && outcome !== "accepted") return <span className="text-xs text-error">{fetcher.data?.message}</span>;
  return (
    <fetcher.Form method="post" action={`/doctor/consultation/${request.id}`} onSubmit={() => onAccepting(request)}>
      <button
        type="submit"
        name="intent"
        value="accept"
        className="btn btn-primary btn-xs"
        disabled={fetcher.state !== "idle" || outcome === "accepted"}
        data-testid="accept-request"
      >
        {outcome === "accepted" ? t("doctor.requests.accepted") : t("doctor.requests.accept")}
      </button>
    </fetcher.Form>
  );
}

function RequestLine({ request, doctorCode }: { request: RequestSummary; doctorCode: string | null }) {
  const { t } = useTranslation();
  const minutes = Math.max(0, Math.floor((useNow() - request.waitingSince) / 60_000));
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <PriorityBadge priority={request.priority} />
        {doctorCode && request.requestedDoctorCode === doctorCode ? (
          <span className="badge badge-accent badge-sm">{t("doctor.requests.forYou")}</span>
        ) : null}
        <span className="text-xs text-base-content/70">{t("doctor.requests.waiting", { minutes })}</span>
      </div>
      <p className="line-clamp-2 text-sm font-medium">{request.title}</p>
      <p className="text-xs text-base-content/70">
        {t("doctor.requests.from", { name: request.patientFirstName, count: request.photoCount })}
      </p>
    </div>
  );
}

/** The header's live request bell, its dropdown, and a toast for each new request (never auto-dismissed). */
export function RequestsBell({ initialCount, doctorCode }: { initialCount: number; doctorCode: string | null }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<RequestSummary[]>([]);
  const onArrival = useCallback(
    (request: RequestSummary) => setToasts((all) => [...all.filter((toast) => toast.id !== request.id), request]),
    [],
  );
  const { requests, connected } = useLobby(onArrival);
  const navigate = useNavigate();
  // The request this doctor is accepting stays on screen (its button shows the outcome) even after the
  // lobby says it left the queue, which it does as soon as this very accept succeeds.
  const [accepting, setAccepting] = useState<RequestSummary | null>(null);
  const count = connected ? requests.length : initialCount;
  const live = new Set(requests.map((request) => request.id));
  const listed = accepting && !live.has(accepting.id) ? [...requests, accepting] : requests;
  const visibleToasts = toasts.filter((toast) => !connected || live.has(toast.id) || toast.id === accepting?.id);
  const dismiss = (id: string) => setToasts((all) => all.filter((toast) => toast.id !== id));
  // The spec's pauses: 1 s after accepting from the dropdown, 0.5 s from a toast.
  const goToAccepted = useCallback(
    (id: string, delayMs: number) =>
      window.setTimeout(() => {
        setAccepting(null);
        setToasts((all) => all.filter((toast) => toast.id !== id));
        navigate(`/doctor/consultation/${id}`);
      }, delayMs),
    [navigate],
  );
  const acceptedFromDropdown = useCallback(
    (id: string) => goToAccepted(id, DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS),
    [goToAccepted],
  );
  const acceptedFromToast = useCallback((id: string) => goToAccepted(id, DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS), [goToAccepted]);
  return (
    <>
      <div className="dropdown sm:dropdown-end">
        <button
          type="button"
          tabIndex={0}
          className="btn btn-ghost btn-sm btn-circle indicator"
          aria-label={t("doctor.requests.bell", { count })}
          data-testid="requests-bell"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
          </svg>
          {count > 0 ? (
            <span className="badge badge-error badge-xs indicator-item" data-testid="requests-count">
              {formatBadgeCount(count)}
            </span>
          ) : null}
        </button>
        <div
          tabIndex={0}
          className="dropdown-content z-40 mt-2 w-80 max-w-[90vw] rounded-box border border-base-300 bg-base-100 p-3 shadow-lg"
        >
          <p className="mb-2 font-bold">{t("doctor.requests.title")}</p>
          {listed.length === 0 ? <p className="text-sm text-base-content/70">{t("doctor.requests.none")}</p> : null}
          <ul className="flex max-h-96 flex-col gap-3 overflow-y-auto" data-testid="requests-dropdown">
            {listed.map((request) => (
              <li key={request.id} className="flex items-start justify-between gap-2 border-b border-base-300 pb-2">
                <RequestLine request={request} doctorCode={doctorCode} />
                <AcceptButton request={request} onAccepting={setAccepting} onAccepted={acceptedFromDropdown} />
              </li>
            ))}
          </ul>
        </div>
      </div>
      {visibleToasts.length ? (
        <div className="toast toast-bottom toast-end z-50 max-w-[95vw]" aria-live="polite">
          {visibleToasts.map((request) => (
            <div
              key={request.id}
              role="status"
              className="alert flex w-80 max-w-full flex-col items-stretch gap-2 border border-base-300 bg-base-100 shadow-lg"
              data-testid="request-toast"
            >
              <p className="font-bold">{t("doctor.requests.newRequest")}</p>
              <RequestLine request={request} doctorCode={doctorCode} />
              <div className="flex justify-end gap-2">
                <button type="button" className="btn btn-ghost btn-xs" onClick={() => dismiss(request.id)}>
                  {t("shell.dismiss")}
                </button>
                <AcceptButton request={request} onAccepting={setAccepting} onAccepted={acceptedFromToast} />
              </div>
            </div>
          ))}
        </div>
      ) : null}
    </>
  );
}
