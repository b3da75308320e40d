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
    <header className="border-b border-base-300 bg-base-100 print:hidden">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2 px-3 py-2">
        <Link to="/" className="flex items-baseline gap-2 text-xl font-bold text-primary">
          <span>Qoda</span>
          {/* Its drawn width from the first frame (see the wordmark in app.css): the header never moves when the font lands. */}
          <span lang="am" className="font-wordmark min-w-[1.51em]">
            ቆዳ
          </span>
        </Link>
        <div className="flex flex-wrap items-center gap-1">
          <LanguageSwitcher />
          <nav aria-label={t("shell.mainNavigation")} className="flex flex-wrap items-center justify-end gap-1">
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

/** The notifications link, named by its words and the unread count beside them. */
function NotificationsLink({ unread }: { unread: number }) {
  const { t } = useTranslation();
  return (
    <Link to="/notifications" className="btn btn-sm btn-ghost gap-1" data-testid="notifications-link">
      {t("notifications.title")}
      {unread > 0 ? (
        <span className="badge badge-sm badge-primary">
          {unread}
          <span className="sr-only"> {t("notifications.unread", { count: unread })}</span>
        </span>
      ) : null}
    </Link>
  );
}
