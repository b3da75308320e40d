import { Form, Link } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";

import { LanguageSwitcher } from "~/components/language-switcher";
import { homePathForRole, type Role } from "~/domain/roles";

// Only active doctors have the live bell: its realtime code is a chunk of its own that nobody else loads.
const RequestsBell = lazy(() => import("~/components/doctor/requests-bell").then((module) => ({ default: module.RequestsBell })));

export function SiteHeader({
  signedInRole,
  doctorBell,
  unreadNotifications,
}: {
  signedInRole: Role | null;
  doctorBell: { initialCount: number; doctorCode: string | null } | null;
  /** Patients' and doctors' unread notifications (null for others). */
  unreadNotifications: number | null;
}) {
  const { t } = useTranslation();
  return (
    <header className="border-b border-base-300 bg-base-100">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2 px-3 py-2">
        <Link to="/" className="flex items-baseline gap-2 text-xl font-bold text-primary">
          <span>Qoda</span>
          <span lang="am" className="font-wordmark">
            ቆዳ
          </span>
        </Link>
        <div className="flex flex-wrap items-center gap-1">
          <LanguageSwitcher />
          <nav aria-label={t("shell.mainNavigation")} className="flex items-center gap-1">
            {signedInRole ? (
              <>
                {doctorBell ? (
                  <Suspense fallback={null}>
                    <RequestsBell initialCount={doctorBell.initialCount} doctorCode={doctorBell.doctorCode} />
                  </Suspense>
                ) : null}
                {unreadNotifications !== null ? <NotificationsLink unread={unreadNotifications} /> : null}
                <Link to={homePathForRole(signedInRole)} className="btn btn-sm btn-primary">
                  {t("shell.dashboard")}
                </Link>
                <Link to={`/${signedInRole}/profile`} className="btn btn-sm btn-ghost">
                  {t("shell.profile")}
                </Link>
                <Form method="post" action="/logout">
                  <button type="submit" className="btn btn-sm btn-ghost" data-testid="sign-out">
                    {t("shell.signOut")}
                  </button>
                </Form>
              </>
            ) : (
              <>
                <Link to="/login" className="btn btn-sm btn-ghost">
                  {t("shell.signIn")}
                </Link>
                <Link to="/register?type=patient" className="btn btn-sm btn-primary">
                  {t("shell.getStarted")}
                </Link>
              </>
            )}
          </nav>
        </div>
      </div>
    </header>
  );
}

/** The notifications bell: a plain link to the list, with the unread count in its name. */
function NotificationsLink({ unread }: { unread: number }) {
  const { t } = useTranslation();
  return (
    <Link to="/notifications" className="btn btn-sm btn-ghost gap-1" data-testid="notifications-link">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      <span className="sr-only">{t("notifications.title")}</span>
      {unread > 0 ? (
        <span className="badge badge-sm badge-primary">
          {unread}
          <span className="sr-only"> {t("notifications.unread", { count: unread })}</span>
        </span>
      ) : null}
    </Link>
  );
}
