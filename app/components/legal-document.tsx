import { useTranslation } from "react-i18next";

import {
  DISPUTE_WINDOW_HOURS,
  ESCROW_RELEASE_HOURS,
  MIN_AGE_YEARS,
  PAYMENT_WINDOW_MINUTES,
  PRIVACY_EMAIL,
  RECORD_RETENTION_YEARS,
  SESSION_IDLE_TIMEOUT_MS,
  SUPPORT_EMAIL,
  SUPPORT_PHONE,
  SUPPORT_TELEGRAM,
} from "~/domain/constants";
import { formatLongDay } from "~/domain/dates";
import { birrText, CONSULTATION_FEE_SANTIM, PLATFORM_FEE_PERCENT } from "~/domain/money";
import { MIN_PAYOUT_SANTIM } from "~/domain/payouts";

/** The date the legal texts last changed; shown on both pages. */
const LEGAL_TEXTS_UPDATED_ON = "2026-11-26";

const CONTACT = { email: SUPPORT_EMAIL, phone: SUPPORT_PHONE, telegram: SUPPORT_TELEGRAM };

/** Each document's sections in order (their ids are anchors and name their texts), with the figures they quote. */
const LEGAL_SECTIONS = {
  terms: {
    about: {},
    emergency: {},
    eligibility: { age: MIN_AGE_YEARS },
    payments: {
      amount: birrText(CONSULTATION_FEE_SANTIM),
      minutes: PAYMENT_WINDOW_MINUTES,
      hours: ESCROW_RELEASE_HOURS,
      percent: PLATFORM_FEE_PERCENT,
    },
    disputes: { hours: DISPUTE_WINDOW_HOURS, email: SUPPORT_EMAIL },
    payouts: { share: 100 - PLATFORM_FEE_PERCENT, minimum: birrText(MIN_PAYOUT_SANTIM) },
    records: { count: RECORD_RETENTION_YEARS },
    conduct: {},
    contact: CONTACT,
  },
  privacy: {
    collect: {},
    access: {},
    photos: {},
    retention: { count: RECORD_RETENTION_YEARS },
    sharing: {},
    security: { minutes: SESSION_IDLE_TIMEOUT_MS / 60_000 },
    minors: { age: MIN_AGE_YEARS },
    rights: { email: PRIVACY_EMAIL },
    contact: { ...CONTACT, privacyEmail: PRIVACY_EMAIL },
  },
} as const;

type LegalDocumentName = keyof typeof LEGAL_SECTIONS;
/** Every section's key prefix: the typed `t` then checks each title and body exists. */
type SectionKey = { [Name in LegalDocumentName]: `legal.${Name}.${keyof (typeof LEGAL_SECTIONS)[Name] & string}` }[LegalDocumentName];

/** One legal page: the terms of service or the privacy policy. */
export function LegalDocument({ name }: { name: LegalDocumentName }) {
  const { t, i18n } = useTranslation();
  const updated = formatLongDay(`${LEGAL_TEXTS_UPDATED_ON}T00:00:00+03:00`, i18n.language);
  const sections = Object.entries(LEGAL_SECTIONS[name]).map(([id, values]) => ({
    id,
    key: `legal.${name}.${id}` as SectionKey,
    values: values as Record<string, string | number>,
  }));
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t(`legal.${name}.title`)}</h1>
        <p className="text-sm text-base-content/80">{t("legal.lastUpdated", { date: updated })}</p>
        <p className="text-lg">{t(`legal.${name}.intro`)}</p>
      </header>
      {sections.map(({ id, key, values }) => (
        <section key={id} id={id} className="flex flex-col gap-2">
          <h2 className="text-xl font-bold">{t(`${key}.title`)}</h2>
          <p className="leading-relaxed">{t(`${key}.body`, values)}</p>
        </section>
      ))}
    </article>
  );
}
