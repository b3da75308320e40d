import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import type { ShownToast } from "~/toast";

const AUTO_DISMISS_MS = 6_000;
const ALERT_CLASS: Record<ShownToast["kind"], string> = {
  success: "alert-success",
  error: "alert-error",
  info: "alert-info",
};

/**
 * The last toast that came with root's data, shown until it is dismissed or times out. Root's data is
 * loaded again after every form and live update, and the flash cookie gives its toast once: a load
 * just after the one that brought it would otherwise take it off the page before it was read. Root's
 * data coming without it on another page ends it.
 */
export function LatestToast({ toast }: { toast: ShownToast | null }) {
  const { pathname } = useLocation();
  const [latest, setLatest] = useState({ toast, pathname, shownCount: 0 });
  // Adjusted while rendering (React's way for state that follows a prop): a new toast starts visible.
  if (toast && toast !== latest.toast) setLatest({ toast, pathname, shownCount: latest.shownCount + 1 });
  else if (!toast && latest.toast && pathname !== latest.pathname) setLatest({ toast: null, pathname, shownCount: latest.shownCount });
  return latest.toast ? <Toaster key={latest.shownCount} toast={latest.toast} /> : null;
}

/**
 * Shows the toast root received from the flash cookie. It is an open, non-modal dialog whose Dismiss
 * button closes it by the browser's own form method "dialog", so it works on pages without JavaScript.
 */
function Toaster({ toast }: { toast: ShownToast }) {
  const { t } = useTranslation();
  // LatestToast gives each toast its own key, so a new one starts visible again.
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (toast.kind === "error") return;
    const timer = window.setTimeout(() => setVisible(false), AUTO_DISMISS_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  return (
    <dialog
      open
      className="toast toast-bottom toast-center z-50 w-full max-w-md bg-transparent px-2 print:hidden"
      aria-labelledby="toast-title"
    >
      <div
        className={`alert ${ALERT_CLASS[toast.kind]} flex items-start justify-between gap-2 shadow-lg`}
        role={toast.kind === "error" ? "alert" : "status"}
      >
        <div>
          <p className="font-bold" id="toast-title">
            {toast.title}
          </p>
          {toast.description ? <p className="text-sm">{toast.description}</p> : null}
        </div>
        <form method="dialog">
          <button type="submit" className="btn btn-ghost btn-xs" onClick={(event) => (event.preventDefault(), setVisible(false))}>
            {t("shell.dismiss")}
          </button>
        </form>
      </div>
    </dialog>
  );
}
