import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import type { TextKey } from "~/i18n";

const SECTIONS: Array<{ to: string; label: TextKey; end?: boolean }> = [
  { to: "/admin/dashboard", label: "admin.nav.dashboard" },
  { to: "/admin/overview", label: "admin.nav.overview" },
  { to: "/admin/doctors", label: "admin.nav.doctors" },
  { to: "/admin/doctor-registrations", label: "admin.nav.registrations" },
  { to: "/admin/patients", label: "admin.nav.patients" },
  { to: "/admin/feedbacks", label: "admin.nav.feedbacks" },
  { to: "/admin/messages", label: "admin.nav.messages" },
  { to: "/admin/payments", label: "admin.nav.payments" },
  { to: "/admin/finance", label: "admin.nav.finance", end: true },
  { to: "/admin/finance/disputes", label: "admin.nav.disputes" },
  { to: "/admin/finance/reconciliation", label: "admin.nav.reconciliation" },
  { to: "/admin/mail", label: "admin.nav.mail" },
  { to: "/admin/audit", label: "admin.nav.audit" },
];

/** The admin sections, one tap away on every admin page; on a phone the row scrolls sideways. */
export function AdminNav() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("admin.nav.label")} className="overflow-x-auto border-b border-base-300 bg-base-200/60">
      <ul className="mx-auto flex max-w-5xl gap-1 px-3 py-1 text-sm">
        {SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive }) => `btn btn-ghost btn-sm whitespace-nowrap ${isActive ? "btn-active" : ""}`}
            >
              {t(section.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
