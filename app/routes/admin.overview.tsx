import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { BarList, ColumnChart } from "~/components/admin/charts";
import { useAdminDates } from "~/components/admin/when";
import { durationParts, formatPercent, formatRating } from "~/domain/admin-figures";
import { birrText } from "~/domain/money";
import { getTranslator, pageTitle } from "~/i18n.server";
import { overviewFigures } from "~/server/admin/overview.server";
import { requireAdmin } from "~/server/auth/guards.server";

// Admins: the platform's real figures, read from D1 on every visit.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("admin.overview.title")), figures: await overviewFigures(args.context.db, new Date()) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

/** One figure with its label and, optionally, a line under it. */
function Figure({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-box border border-base-300 p-3 sm:p-4">
      <dt className="text-sm break-words text-base-content/80">{label}</dt>
      <dd className="text-xl font-bold break-words sm:text-2xl" data-testid={testId}>
        {value}
      </dd>
      {note ? <dd className="text-xs break-words text-base-content/80">{note}</dd> : null}
    </div>
  );
}

function useDuration() {
  const { t } = useTranslation();
  return (ms: number | null) =>
    ms === null
      ? t("admin.overview.noData")
      : durationParts(ms)
          .map((part) => t(`admin.overview.units.${part.unit}`, { count: part.value }))
          .join(" ");
}

export default function AdminOverview() {
  const { t } = useTranslation();
  const { figures } = useLoaderData<typeof loader>();
  const duration = useDuration();
  const dates = useAdminDates();
  const busiest = figures.perDay.reduce((top, day) => (day.total > top.total ? day : top), figures.perDay[0]!);
  const perDaySummary =
    figures.created.last30Days === 0
      ? t("admin.overview.perDayNone")
      : t("admin.overview.perDaySummary", { total: figures.created.last30Days, day: dates.day(busiest.date), most: busiest.total });
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-5 px-4 py-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">{t("admin.overview.title")}</h1>
        <p className="text-base-content/80">{t("admin.overview.intro")}</p>
      </header>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label={t("admin.overview.total")} value={String(figures.total)} testId="figure-total" />
        <Figure label={t("admin.overview.newLastDay")} value={String(figures.created.lastDay)} testId="figure-new-day" />
        <Figure label={t("admin.overview.newLast7Days")} value={String(figures.created.last7Days)} testId="figure-new-week" />
        <Figure label={t("admin.overview.newLast30Days")} value={String(figures.created.last30Days)} testId="figure-new-month" />
        <Figure label={t("admin.overview.medianToAccept")} value={duration(figures.medianToAcceptMs)} testId="figure-median-accept" />
        <Figure label={t("admin.overview.medianToPayment")} value={duration(figures.medianToPaymentMs)} testId="figure-median-payment" />
        <Figure
          label={t("admin.overview.completionRate")}
          value={formatPercent(figures.completion.rate)}
          note={t("admin.overview.completionNote", { completed: figures.completion.completed, finished: figures.completion.finished })}
          testId="figure-completion"
        />
        <Figure
          label={t("admin.overview.averageRating")}
          value={formatRating(figures.rating.average)}
          note={t("admin.overview.ratingNote", { count: figures.rating.count })}
          testId="figure-rating"
        />
        <Figure
          label={t("admin.overview.paymentsReceived")}
          value={t("admin.overview.etb", { amount: birrText(figures.payments.received.santim) })}
          note={t("admin.overview.paymentsCount", { count: figures.payments.received.count })}
          testId="figure-received"
        />
        <div className="flex min-w-0 flex-col gap-1 rounded-box border border-base-300 p-3 sm:p-4">
          <dt className="text-sm break-words text-base-content/80">{t("admin.overview.awaitingRefund")}</dt>
          <dd className="text-xl font-bold sm:text-2xl" data-testid="figure-awaiting-refund">
            {figures.payments.awaitingRefund.count}
          </dd>
          <dd className="text-xs text-base-content/80">
            {t("admin.overview.etb", { amount: birrText(figures.payments.awaitingRefund.santim) })}
            {figures.payments.awaitingRefund.count > 0 ? (
              <>
                {" · "}
                <Link to="/admin/payments" className="link">
                  {t("admin.overview.reviewPayments")}
                </Link>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <BarList
          title={t("admin.overview.byStatus")}
          items={figures.byStatus.map((row) => ({ key: row.status, label: t(`status.${row.status}`), value: row.total }))}
        />
        <ColumnChart
          title={t("admin.overview.perDay")}
          summary={perDaySummary}
          tableLabel={t("admin.overview.showTable")}
          headers={{ label: t("admin.overview.day"), value: t("admin.overview.newConsultations") }}
          columns={figures.perDay.map((day) => ({ key: day.date, label: dates.day(day.date), value: day.total }))}
        />
      </div>
    </section>
  );
}
