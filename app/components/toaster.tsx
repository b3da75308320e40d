import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Toast } from "~/toast";

const AUTO_DISMISS_MS = 6_000;
const ALERT_CLASS: Record<Toast["kind"], string> = {
  success: "alert-success",
  error: "alert-error",
  info: "alert-info",
};

/** Shows the toast root received from the flash cookie. Without JavaScript it simply stays. */
export function Toaster({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    setVisible(true);
    if (toast.kind === "error") return;
    const timer = window.setTimeout(() => setVisible(false), AUTO_DISMISS_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  // Keys come from our own actions; an unknown key falls back to showing itself rather than nothing.
  const translate = (key: string) => String(t(key as never, toast.values as never));
  return (
    <div className="toast toast-bottom toast-center z-50 w-full max-w-md px-2" role={toast.kind === "error" ? "alert" : "status"}>
      <div className={`alert ${ALERT_CLASS[toast.kind]} flex items-start justify-between gap-2 shadow-lg`}>
        <div>
          <p className="font-bold">{translate(toast.title)}</p>
          {toast.description ? <p className="text-sm">{translate(toast.description)}</p> : null}
        </div>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setVisible(false)}>
          {t("shell.dismiss")}
        </button>
      </div>
    </div>
  );
}
