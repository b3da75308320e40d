import { useNavigate } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { useLobby } from "~/components/realtime/use-lobby";
import {
  DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS,
  DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS,
  formatBadgeCount,
} from "~/domain/constants";
import type { RequestSummary } from "~/realtime/protocol";

// What the bell shows only sometimes loads when first needed: the open panel, and the toasts.
const loadPanel = () => import("./requests-panel");
const RequestsPanel = lazy(() => loadPanel().then((module) => ({ default: module.RequestsPanel })));
const RequestToasts = lazy(() => import("./request-toasts").then((module) => ({ default: module.RequestToasts })));

/** The header's live request bell: a disclosure listing the waiting requests, and a toast for each new one. */
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
  const { open, setOpen, buttonRef, panelRef } = useDisclosure();
  // The spec's pauses: 1 s after accepting from the dropdown, 0.5 s from a toast.
  const goToAccepted = useCallback(
    (id: string, delayMs: number) =>
      window.setTimeout(() => {
        setAccepting(null);
        setOpen(false);
        setToasts((all) => all.filter((toast) => toast.id !== id));
        navigate(`/doctor/consultation/${id}`);
      }, delayMs),
    [navigate, setOpen],
  );
  const acceptedFromDropdown = useCallback(
    (id: string) => goToAccepted(id, DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS),
    [goToAccepted],
  );
  const acceptedFromToast = useCallback((id: string) => goToAccepted(id, DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS), [goToAccepted]);
  const panelId = useId();
  const shownCount = formatBadgeCount(count);
  return (
    <>
      <div className="relative">
        <button
          ref={buttonRef}
          type="button"
          className="btn btn-ghost btn-sm btn-circle indicator"
          aria-label={t("doctor.requests.bell", { shown: shownCount })}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          onPointerEnter={() => void loadPanel()}
          onFocus={() => void loadPanel()}
          data-testid="requests-bell"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
          </svg>
          {count > 0 ? (
            <span className="badge badge-error badge-xs indicator-item" aria-hidden="true" data-testid="requests-count">
              {shownCount}
            </span>
          ) : null}
        </button>
        {/* Closed, the panel holds nothing: its links and buttons are out of the tab order. */}
        <div
          ref={panelRef}
          id={panelId}
          hidden={!open}
          className="absolute right-0 z-40 mt-2 w-80 max-w-[90vw] rounded-box border border-base-300 bg-base-100 p-3 shadow-lg max-sm:fixed max-sm:inset-x-2 max-sm:w-auto"
        >
          {open ? (
            <Suspense fallback={<span className="loading loading-dots loading-sm" aria-label={t("forms.busy")} />}>
              <RequestsPanel
                requests={listed}
                doctorCode={doctorCode}
                onView={() => setOpen(false)}
                onAccepting={setAccepting}
                onAccepted={acceptedFromDropdown}
              />
            </Suspense>
          ) : null}
        </div>
      </div>
      {visibleToasts.length ? (
        <Suspense fallback={null}>
          <RequestToasts
            requests={visibleToasts}
            doctorCode={doctorCode}
            onDismiss={dismiss}
            onDismissAll={() => setToasts([])}
            onAccepting={setAccepting}
            onAccepted={acceptedFromToast}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** Open and close: Escape closes it (focus back on the button), and so does a click or focus outside it. */
function useDisclosure() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && (buttonRef.current?.contains(target) || panelRef.current?.contains(target));
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (!inside(event.target)) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open]);
  return { open, setOpen, buttonRef, panelRef };
}
