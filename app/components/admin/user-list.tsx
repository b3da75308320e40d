// Lists of people on admin pages: stacked cards that read well at 360 px and line up on wide screens.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { formatDay } from "~/domain/dates";

/** Days on admin pages, in the reader's calendar (`formatDay`), the same on the server and in the browser. */
export function useAdminDate() {
  const { i18n } = useTranslation();
  return (value: string) => formatDay(value, i18n.language);
}

export function PersonName({ firstName, lastName }: { firstName: string | null; lastName: string | null }) {
  const { t } = useTranslation();
  const name = `${firstName ?? ""} ${lastName ?? ""}`.trim();
  return <>{name || t("admin.users.noName")}</>;
}

export function DoctorStatusBadge({ status }: { status: "active" | "inactive" }) {
  const { t } = useTranslation();
  return (
    <span className={`badge badge-sm ${status === "active" ? "badge-success" : "badge-neutral"}`} data-testid="doctor-status">
      {t(`admin.doctors.status.${status}`)}
    </span>
  );
}

export function CardList({ children, testId, empty }: { children: ReactNode[]; testId: string; empty: string }) {
  if (children.length === 0) return <p className="text-sm text-base-content/70">{empty}</p>;
  return (
    <ul className="grid gap-3 md:grid-cols-2" data-testid={testId}>
      {children}
    </ul>
  );
}
