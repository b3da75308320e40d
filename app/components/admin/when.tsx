import { useTranslation } from "react-i18next";

/** Times read as an Ethiopian clock shows them, wherever the page is rendered (server and browser agree). */
const TIME_ZONE = "Africa/Addis_Ababa";

/** Date and time formatters in the page's language and Ethiopian time. */
export function useAdminDates() {
  const { i18n } = useTranslation();
  const locale = i18n.language === "am" ? "am-ET" : "en-GB";
  const dateTime = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, dateStyle: "medium", timeStyle: "short", hourCycle: "h23" });
  const day = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, day: "numeric", month: "short" });
  return {
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
    day: (iso: string) => day.format(new Date(iso)),
  };
}

/** A moment as a `<time>` element, in Ethiopian time. */
export function When({ iso }: { iso: string | null }) {
  const { dateTime } = useAdminDates();
  if (!iso) return <span>–</span>;
  return <time dateTime={iso}>{dateTime(iso)}</time>;
}
