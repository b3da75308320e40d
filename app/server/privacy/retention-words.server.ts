// How a record's retention reads for admins (docs/decisions/0037): kept while the account is open,
// purged on a date to come, or purged on a date gone; Ethiopian dates for Amharic readers.
import { formatLongDay } from "~/domain/dates";
import { recordRetention } from "~/domain/retention";
import type { getTranslator } from "~/i18n.server";

type Translate = Awaited<ReturnType<typeof getTranslator>>;

export function retentionWords(t: Translate, language: string, record: { purgeAfter: Date | null; purgedAt: Date | null }) {
  const retention = recordRetention(record);
  if (retention.kind === "kept") return t("privacyRights.admin.kept");
  const date = formatLongDay(retention.on, language);
  return retention.kind === "purged" ? t("privacyRights.admin.purged", { date }) : t("privacyRights.admin.scheduled", { date });
}

/** A closed patient's line in the admins' list: closed when, and what becomes of their records. */
export function closedPatientWords(
  t: Translate,
  language: string,
  patient: { closedAt: Date | null; purgeAfter: Date | null; purgedAt: Date | null },
) {
  if (!patient.closedAt) return null;
  return {
    name: t("privacyRights.closedAccount"),
    closedOn: t("privacyRights.admin.closedOn", { date: formatLongDay(patient.closedAt, language) }),
    retention: retentionWords(t, language, patient),
  };
}
