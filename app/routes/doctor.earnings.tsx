import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";

import { Pager } from "~/components/pager";
import { formatDay, formatMonth } from "~/domain/dates";
import { monthlyTotals } from "~/domain/earnings";
import { birrText } from "~/domain/money";
import { pageRequest, toPage } from "~/domain/paging";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { shownName } from "~/server/db/profiles.server";
import { earningsByConsultation, earningsTotals, payoutsOf, releasesOf } from "~/server/money/earnings.server";
import { payoutHoldLineOf } from "~/server/money/payout-account.server";

const CONSULTATIONS_PER_PAGE = 20;

// The doctor's earnings: what is held, theirs, on its way and paid; by month, by consultation, and
// each payout with its reference. Everything is read from the ledger; the CSV has every movement.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const page = pageRequest(new URL(request.url).searchParams, CONSULTATIONS_PER_PAGE);
  const [totals, releases, consultations, payouts, payoutHold] = await Promise.all([
    earningsTotals(context.db, doctor.userId),
    releasesOf(context.db, doctor.userId),
    earningsByConsultation(context.db, doctor.userId, page),
    payoutsOf(context.db, doctor.userId),
    payoutHoldLineOf(context.db, t, language, doctor.userId, new Date()),
  ]);
  const byConsultation = toPage(consultations, page, CONSULTATIONS_PER_PAGE);
  const birr = (santim: number) => t("earnings.birr", { amount: birrText(santim) });
  // Worded here in the reader's language: the page ships none of its texts.
  return {
    title: pageTitle(t("earnings.title")),
    words: {
      title: t("earnings.title"),
      download: t("earnings.download"),
      payoutTerms: t("earnings.payoutTerms"),
      payoutDetails: t("earnings.payoutDetails"),
      // Payouts to changed payout details wait 48 hours: when they start.
      payoutHold,
      byMonth: t("earnings.byMonth"),
      noReleases: t("earnings.noReleases"),
      byConsultation: t("earnings.byConsultation"),
      noConsultations: t("earnings.noConsultations"),
      payouts: t("earnings.payouts"),
      noPayouts: t("earnings.noPayouts"),
    },
    pagerWords: {
      label: t("paging.label"),
      previous: t("paging.previous"),
      next: t("paging.next"),
      page: t("paging.page", { page: page.page }),
    },
    figures: [
      { key: "held", label: t("earnings.held"), value: birr(totals.heldSantim), hint: t("earnings.heldHint") },
      { key: "available", label: t("earnings.available"), value: birr(totals.availableSantim), hint: t("earnings.availableHint") },
      { key: "inTransit", label: t("earnings.inTransit"), value: birr(totals.inTransitSantim), hint: t("earnings.inTransitHint") },
      { key: "paidOut", label: t("earnings.paidOut"), value: birr(totals.paidOutSantim), hint: null },
    ],
    months: monthlyTotals(releases, (date) => formatMonth(date, language)).map((month) => ({
      month: month.month,
      line: t("earnings.monthLine", { count: month.consultations, amount: birrText(month.amountSantim) }),
    })),
    consultations: {
      ...byConsultation,
      rows: byConsultation.rows.map((row) => ({
        id: row.consultationId,
        label: t("earnings.consultationOf", {
          name: shownName(t, { firstName: row.patientFirstName, lastName: null, closedAt: row.patientClosedAt }, { firstNameOnly: true }),
          date: formatDay(row.completedAt ?? row.paidAt, language),
        }),
        status: row.status,
        statusLabel: t(`earnings.escrow.${row.status}`),
        share: birr(row.shareSantim),
      })),
    },
    payouts: payouts.map((payout) => ({
      reference: payout.reference,
      status: payout.status,
      statusLabel: t(`earnings.payout.${payout.status}`),
      amount: birr(payout.amountSantim),
      to: t("earnings.payoutTo", {
        account: `${payout.bankName} ••${payout.accountNumber.slice(-4)}`,
        date: formatDay(payout.createdAt, language),
      }),
      paidOn:
        payout.status === "succeeded" && payout.settledAt ? t("earnings.paidOn", { date: formatDay(payout.settledAt, language) }) : null,
      failed: payout.status === "failed" ? t("earnings.failedBecause", { reason: payout.failureReason ?? "" }) : null,
      referenceLine: t("earnings.reference", { reference: payout.reference }),
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
  charged_back: "badge-error",
  pending: "badge-info",
  succeeded: "badge-success",
  failed: "badge-error",
} as const;

export default function DoctorEarnings() {
  const { words, pagerWords, figures, months, consultations, payouts } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{words.title}</h1>
        <a href="/doctor/earnings.csv" className="btn btn-sm btn-outline" download>
          {words.download}
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.key} className="min-w-0 rounded-box border border-base-300 p-4">
            <dt className="text-sm break-words text-base-content/80">{figure.label}</dt>
            <dd className="text-2xl font-bold">{figure.value}</dd>
            {figure.hint ? <dd className="text-xs text-base-content/70">{figure.hint}</dd> : null}
          </div>
        ))}
      </dl>
      <p className="text-sm">
        {words.payoutTerms}{" "}
        <Link to="/doctor/profile/payout" className="link">
          {words.payoutDetails}
        </Link>
      </p>
      {words.payoutHold ? (
        <p role="status" className="alert alert-info text-sm" data-testid="payout-hold">
          {words.payoutHold}
        </p>
      ) : null}

      <ListSection id="months" title={words.byMonth} empty={months.length === 0 ? words.noReleases : null}>
        <ul className={LIST}>
          {months.map((month) => (
            <li key={month.month} className="flex flex-wrap justify-between gap-2 p-3 text-sm">
              <span className="font-semibold">{month.month}</span>
              <span>{month.line}</span>
            </li>
          ))}
        </ul>
      </ListSection>

      <ListSection id="consultations" title={words.byConsultation} empty={consultations.rows.length === 0 ? words.noConsultations : null}>
        <ul className={LIST} data-testid="earnings-consultations">
          {consultations.rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
              <Link to={`/doctor/consultation/${row.id}`} className="link">
                {row.label}
              </Link>
              <span className="flex flex-wrap items-center gap-2">
                <span className={`badge badge-sm ${STATUS_BADGE[row.status]}`}>{row.statusLabel}</span>
                <span>{row.share}</span>
              </span>
            </li>
          ))}
        </ul>
        <Pager page={consultations.page} hasPrevious={consultations.hasPrevious} hasNext={consultations.hasNext} words={pagerWords} />
      </ListSection>

      <ListSection id="payouts" title={words.payouts} empty={payouts.length === 0 ? words.noPayouts : null}>
        <ul className={LIST} data-testid="earnings-payouts">
          {payouts.map((payout) => (
            <li key={payout.reference} className="flex flex-col gap-1 p-3 text-sm">
              <span className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold">{payout.amount}</span>
                <span className={`badge badge-sm ${STATUS_BADGE[payout.status]}`}>{payout.statusLabel}</span>
              </span>
              <span>{payout.to}</span>
              {payout.paidOn ? <span>{payout.paidOn}</span> : null}
              {payout.failed ? <span className="text-error">{payout.failed}</span> : null}
              <span className="font-mono text-xs break-all text-base-content/70">{payout.referenceLine}</span>
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
