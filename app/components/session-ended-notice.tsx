import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { useSessionEnded } from "~/components/realtime/session-ended";

/** Shown when a room closes this page's socket because the session ended: the page no longer updates. */
export function SessionEndedNotice() {
  const { t } = useTranslation();
  const ended = useSessionEnded();
  const location = useLocation();
  if (!ended) return null;
  const back = encodeURIComponent(`${location.pathname}${location.search}`);
  return (
    <div
      role="alert"
      className="alert alert-warning fixed inset-x-2 top-2 z-50 mx-auto flex max-w-lg flex-wrap shadow-lg"
      data-testid="session-ended"
    >
      <div className="flex-1">
        <p className="font-bold">{t("shell.sessionEnded.title")}</p>
        <p className="text-sm">{t("shell.sessionEnded.body")}</p>
      </div>
      {/* A full page load: the server sees the session is gone and starts afresh. */}
      <a href={`/login?redirect=${back}`} className="btn btn-sm">
        {t("shell.sessionEnded.signIn")}
      </a>
    </div>
  );
}
