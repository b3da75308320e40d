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
 * Shows the toast root received from the flash cookie. It is an open, non-modal dialog whose Dismiss
 * button closes it by the browser's own form method "dialog", so it works on pages without JavaScript.
 */
export function Toaster({ toast }: { toast: ShownToast }) {
  const { t } = useTranslation();
  // Root gives each toast its own key, so a new one starts visible again.
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
