import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Pager } from "~/components/pager";
import { formatDay, formatMonth } from "~/domain/dates";
import { monthlyTotals } from "~/domain/earnings";
import { birrText } from "~/domain/money";
import { pageRequest, toPage } from "~/domain/paging";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { earningsByConsultation, earningsTotals, payoutsOf, releasesOf } from "~/server/money/earnings.server";

const CONSULTATIONS_PER_PAGE = 20;

// The doctor's earnings: what is held, theirs, on its way and paid; by month, by consultation, and
// each payout with its reference. Everything is read from the ledger; the CSV has every movement.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const page = pageRequest(new URL(request.url).searchParams, CONSULTATIONS_PER_PAGE);
  const [totals, releases, consultations, payouts] = await Promise.all([
    earningsTotals(context.db, doctor.userId),
    releasesOf(context.db, doctor.userId),
    earningsByConsultation(context.db, doctor.userId, page),
    payoutsOf(context.db, doctor.userId),
  ]);
  const byConsultation = toPage(consultations, page, CONSULTATIONS_PER_PAGE);
  return {
    title: pageTitle(t("doctor.earnings.title")),
    totals: {
      held: birrText(totals.heldSantim),
      available: birrText(totals.availableSantim),
      inTransit: birrText(totals.inTransitSantim),
      paidOut: birrText(totals.paidOutSantim),
    },
    months: monthlyTotals(releases, (date) => formatMonth(date, language)).map((month) => ({
      ...month,
      amount: birrText(month.amountSantim),
    })),
    consultations: {
      ...byConsultation,
      rows: byConsultation.rows.map((row) => ({
        id: row.consultationId,
        patient: row.patientFirstName ?? "",
        date: formatDay(row.completedAt ?? row.paidAt, language),
        status: row.status,
        share: birrText(row.shareSantim),
        releasedOn: row.releasedAt ? formatDay(row.releasedAt, language) : null,
      })),
    },
    payouts: payouts.map((payout) => ({
      reference: payout.reference,
      amount: birrText(payout.amountSantim),
      status: payout.status,
      account: `${payout.bankName} ••${payout.accountNumber.slice(-4)}`,
      sentOn: formatDay(payout.createdAt, language),
      settledOn: payout.settledAt ? formatDay(payout.settledAt, language) : null,
      failureReason: payout.failureReason,
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

const STATUS_BADGE = {
  held: "badge-info",
  disputed: "badge-warning",
  in_review: "badge-warning",
  released: "badge-success",
  refunded: "badge-ghost",
  pending: "badge-info",
  succeeded: "badge-success",
  failed: "badge-error",
} as const;

export default function DoctorEarnings() {
  const { t } = useTranslation();
  const { totals, months, consultations, payouts } = useLoaderData<typeof loader>();
  const figures = [
    { label: t("doctor.earnings.held"), value: totals.held, hint: t("doctor.earnings.heldHint") },
    { label: t("doctor.earnings.available"), value: totals.available, hint: t("doctor.earnings.availableHint") },
    { label: t("doctor.earnings.inTransit"), value: totals.inTransit, hint: t("doctor.earnings.inTransitHint") },
    { label: t("doctor.earnings.paidOut"), value: totals.paidOut, hint: null },
  ];
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t("doctor.earnings.title")}</h1>
        <a href="/doctor/earnings.csv" className="btn btn-sm btn-outline" download>
          {t("doctor.earnings.download")}
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="min-w-0 rounded-box border border-base-300 p-4">
            <dt className="text-sm break-words text-base-content/80">{figure.label}</dt>
            <dd className="text-2xl font-bold">{t("doctor.earnings.birr", { amount: figure.value })}</dd>
            {figure.hint ? <dd className="text-xs text-base-content/70">{figure.hint}</dd> : null}
          </div>
        ))}
      </dl>
      <p className="text-sm">
        {t("doctor.earnings.payoutTerms")}{" "}
        <Link to="/doctor/profile#payout-account" className="link">
          {t("doctor.earnings.payoutDetails")}
        </Link>
      </p>

      <ListSection id="months" title={t("doctor.earnings.byMonth")} empty={months.length === 0 ? t("doctor.earnings.noReleases") : null}>
        <ul className={LIST}>
          {months.map((month) => (
            <li key={month.month} className="flex flex-wrap justify-between gap-2 p-3 text-sm">
              <span className="font-semibold">{month.month}</span>
              <span>{t("doctor.earnings.monthLine", { count: month.consultations, amount: month.amount })}</span>
            </li>
          ))}
        </ul>
      </ListSection>

      <ListSection
        id="consultations"
        title={t("doctor.earnings.byConsultation")}
        empty={consultations.rows.length === 0 ? t("doctor.earnings.noConsultations") : null}
      >
        <ul className={LIST}>
          {consultations.rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
              <Link to={`/doctor/consultation/${row.id}`} className="link">
                {t("doctor.earnings.consultationOf", { name: row.patient, date: row.date })}
              </Link>
              <span className="flex flex-wrap items-center gap-2">
                <span className={`badge badge-sm ${STATUS_BADGE[row.status]}`}>{t(`doctor.earnings.escrow.${row.status}`)}</span>
                <span>{t("doctor.earnings.birr", { amount: row.share })}</span>
              </span>
            </li>
          ))}
        </ul>
        <Pager page={consultations.page} hasPrevious={consultations.hasPrevious} hasNext={consultations.hasNext} />
      </ListSection>

      <ListSection id="payouts" title={t("doctor.earnings.payouts")} empty={payouts.length === 0 ? t("doctor.earnings.noPayouts") : null}>
        <ul className={LIST}>
          {payouts.map((payout) => (
            <li key={payout.reference} className="flex flex-col gap-1 p-3 text-sm">
              <span className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold">{t("doctor.earnings.birr", { amount: payout.amount })}</span>
                <span className={`badge badge-sm ${STATUS_BADGE[payout.status]}`}>{t(`doctor.earnings.payout.${payout.status}`)}</span>
              </span>
              <span>{t("doctor.earnings.payoutTo", { account: payout.account, date: payout.sentOn })}</span>
              {payout.settledOn && payout.status === "succeeded" ? (
                <span>{t("doctor.earnings.paidOn", { date: payout.settledOn })}</span>
              ) : null}
              {payout.status === "failed" ? (
                <span className="text-error">{t("doctor.earnings.failedBecause", { reason: payout.failureReason ?? "" })}</span>
              ) : null}
              <span className="font-mono text-xs break-all text-base-content/70">
                {t("doctor.earnings.reference", { reference: payout.reference })}
              </span>
            </li>
          ))}
        </ul>
      </ListSection>
    </section>
  );
}

const LIST = "flex flex-col divide-y divide-base-300 rounded-box border border-base-300";

/** A titled part of the page: its list, or the sentence that says it is empty. */
function ListSection({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2">
      <h2 id={`${id}-heading`} className="text-xl font-bold">
        {title}
      </h2>
      {empty ? <p className="text-sm text-base-content/70">{empty}</p> : children}
    </section>
  );
}
