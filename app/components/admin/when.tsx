import { useTranslation } from "react-i18next";

import { formatMoment, formatShortDay } from "~/domain/dates";

/** Moments and days in the page's language and calendar, Addis Ababa time (server and browser agree). */
export function useAdminDates() {
  const { i18n } = useTranslation();
  return {
    dateTime: (iso: string) => formatMoment(iso, i18n.language),
    day: (iso: string) => formatShortDay(iso, i18n.language),
  };
}

/** A moment as a `<time>` element, in Ethiopian time. */
export function When({ iso }: { iso: string | null }) {
  const { dateTime } = useAdminDates();
  if (!iso) return <span>–</span>;
  return <time dateTime={iso}>{dateTime(iso)}</time>;
}
