import { type ActionFunctionArgs, data as answer, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { MoneyDecisionForms } from "~/components/admin/money-decision-forms";
import { useAdminDates, When } from "~/components/admin/when";
import { SubmitButton } from "~/components/form-basics";
import { formatConsultationId } from "~/domain/constants";
import { isUuid } from "~/domain/ids";
import { LEDGER_ACCOUNTS } from "~/domain/ledger";
import { birrDecimal, birrText } from "~/domain/money";
import { MONEY_DECISION_INTENT, MoneyDecisionSchema } from "~/domain/money-decisions";
import { readPayoutReason } from "~/domain/payouts";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import {
  books,
  owedButUnpaid,
  payoutAccountsOnHold,
  payoutsInFlight,
  recentPayouts,
  refundsInFlight,
  waitingOnAdmins,
} from "~/server/money/finance.server";
import { decidePayout, runPayouts } from "~/server/money/payouts.server";
import { reconciliationSummary } from "~/server/money/reconciliation.server";
import { decideRefund, retryRefund } from "~/server/money/refunds.server";
import { redirectWithToast } from "~/server/toast.server";

const RUN_PAYOUTS_INTENT = "run-payouts";
const RETRY_REFUND_INTENT = "retry-refund";
const FINANCE = "/admin/finance";

// Admins and the accountant: the books (each account and their sum, which must be zero), what waits on
// an admin, refunds and payouts in flight or failed, a payout run on demand, and the journal as CSV.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const t = await getTranslator(request);
  // Our own reason (an amount that differs from ours) is worded here; the provider's stays in its words.
  const payoutReasonText = (stored: string) => {
    const reason = readPayoutReason(stored);
    return reason.kind === "amount_mismatch"
      ? t("admin.finance.amountMismatch", { sent: birrText(reason.sentSantim), expected: birrText(reason.expectedSantim) })
      : reason.words;
  };
  const now = new Date();
  const [ledger, waiting, refunds, payouts, paid, unpaid, onHold, reconciliation] = await Promise.all([
    books(context.db),
    waitingOnAdmins(context.db),
    refundsInFlight(context.db, now),
    payoutsInFlight(context.db, now),
    recentPayouts(context.db),
    owedButUnpaid(context.db),
    payoutAccountsOnHold(context.db, now),
    reconciliationSummary(context.db),
  ]);
  const name = (first: string | null, last: string | null) => `${first ?? ""} ${last ?? ""}`.trim();
  return {
    title: pageTitle(t("admin.finance.title")),
    balances: LEDGER_ACCOUNTS.map((account) => ({ account, balance: birrDecimal(ledger.balances[account]) })),
    total: birrDecimal(ledger.totalSantim),
    balanced: ledger.totalSantim === 0 && ledger.unbalancedEntries === 0,
    // Balanced books prove only that they agree with themselves: what Chapa says is the other half.
    reconciliation: {
      openDifferences: reconciliation.openDifferences,
      lastRunAt: reconciliation.lastRun?.createdAt.toISOString() ?? null,
      lastRunFailed: reconciliation.lastRun?.error != null,
    },
    figures: {
      escrow: birrDecimal(-ledger.balances.escrow),
      owed: birrDecimal(-ledger.balances.doctor_payable),
      payoutsInTransit: birrDecimal(-ledger.balances.payouts_in_transit),
      refundsInTransit: birrDecimal(-ledger.balances.refunds_in_transit),
      revenue: birrDecimal(-ledger.balances.platform_revenue),
      providerFees: birrDecimal(ledger.balances.provider_fees),
      clearing: birrDecimal(ledger.balances.provider_clearing),
    },
    waiting: {
      openDisputes: waiting.openDisputes,
      inReview: waiting.inReview.map((row) => ({ consultationId: row.consultationId, title: row.title, since: row.since.toISOString() })),
    },
    refunds: refunds.map((refund) => ({
      id: refund.id,
      reference: refund.reference,
      consultationId: refund.consultationId,
      consultationTitle: refund.consultationTitle,
      amount: birrDecimal(refund.amountSantim),
      reason: refund.reason,
      status: refund.status,
      attempts: refund.attempts,
      lastError: refund.lastError,
      reviewReason: refund.reviewReason,
      createdAt: refund.createdAt.toISOString(),
      canRetry: refund.status === "failed" && Number(refund.superseded) === 0,
    })),
    payouts: payouts.map((payout) => ({
      id: payout.id,
      reference: payout.reference,
      doctor: name(payout.doctorFirstName, payout.doctorLastName),
      amount: birrDecimal(payout.amountSantim),
      bankName: payout.bankName,
      status: payout.status,
      failureReason: payout.failureReason ? payoutReasonText(payout.failureReason) : null,
      reviewReason: payout.reviewReason,
      createdAt: payout.createdAt.toISOString(),
    })),
    owedUnpaid: unpaid.map((doctor) => ({
      doctorId: doctor.doctorId,
      doctor: name(doctor.firstName, doctor.lastName),
      amount: birrDecimal(doctor.owedSantim),
      reasons: [
        ...(doctor.deactivated ? (["deactivated"] as const) : []),
        ...(doctor.hasPayoutDetails ? [] : (["noPayoutDetails"] as const)),
      ],
    })),
    onHold: onHold.map((account) => ({
      doctorId: account.doctorId,
      doctor: name(account.firstName, account.lastName),
      bank: account.bankName,
      last4: account.accountNumber.slice(-4),
      startsAt: account.startsAt.toISOString(),
    })),
    paid: paid.map((payout) => ({
      reference: payout.reference,
      doctor: name(payout.doctorFirstName, payout.doctorLastName),
      amount: birrDecimal(payout.amountSantim),
      settledAt: payout.settledAt?.toISOString() ?? null,
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// A payout run now (every doctor with at least the minimum available), or a failed refund asked again.
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request } = args;
  const form = await readFormData(request);
  const env = context.cloudflare.env;
  const now = new Date();
  const intent = form.get("intent");
  if (intent === RUN_PAYOUTS_INTENT) {
    const report = await runPayouts(env, context.config, now, { adminId: admin.userId });
    return redirectWithToast(
      FINANCE,
      {
        kind: "success",
        title: report.moreDue ? "payoutRuns.partial" : "admin.finance.payoutRun",
        values: { sent: report.sent, failed: report.failed },
      },
      context.config,
    );
  }
  if (intent === MONEY_DECISION_INTENT) return decideMoney(admin.userId, env, context, request, form, now);
  const refundId = form.get("refundId");
  if (intent === RETRY_REFUND_INTENT && isUuid(refundId)) {
    const outcome = await retryRefund(env, context.config, admin.userId, refundId, now);
    return redirectWithToast(
      FINANCE,
      outcome === "retried"
        ? { kind: "success", title: "admin.finance.refundRetried" }
        : {
            kind: "error",
            title: outcome === "not_found" ? "admin.finance.errors.refundNotFound" : "admin.finance.errors.refundNotFailed",
          },
      context.config,
    );
  }
  return redirectWithToast(FINANCE, { kind: "error", title: "admin.finance.errors.invalid" }, context.config);
}

/** An admin's decision on a refund or payout the provider has not settled (MoneyDecisionForms). */
async function decideMoney(adminId: string, env: Env, context: ActionFunctionArgs["context"], request: Request, form: FormData, now: Date) {
  const submission = parseForm(form, MoneyDecisionSchema);
  if (submission.status !== "success") {
    const id = String(form.get("id") ?? "");
    const { note } = translatedFieldErrors(await getTranslator(request), submission);
    if (!note) return redirectWithToast(FINANCE, { kind: "error", title: "admin.finance.errors.invalid" }, context.config);
    return answer({ decided: id, error: note }, { status: 400 });
  }
  const { subject, id, decision, note } = submission.value;
  const asked = decision === "settled_outside" ? { kind: decision, note: note ?? "" } : { kind: decision };
  const { outcome, providerSays } =
    subject === "refund"
      ? await decideRefund(env, context.config, adminId, id, asked, now)
      : await decidePayout(env, context.config, adminId, id, asked, now);
  const done = outcome === "asked" || outcome === "settled_outside" || outcome === "failed";
  return redirectWithToast(
    FINANCE,
    done
      ? { kind: "success", title: `admin.finance.decisions.done.${outcome}` }
      : outcome === "not_confirmed"
        ? { kind: "error", title: "admin.finance.decisions.notConfirmed", values: { says: providerSays || "—" } }
        : { kind: "error", title: "admin.finance.decisions.notPending" },
    context.config,
  );
}

function Part({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-bold">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** What /admin/finance/reconciliation says, in one line: red while a difference with Chapa is open. */
function ReconciliationBanner({ state }: { state: { openDifferences: number; lastRunAt: string | null; lastRunFailed: boolean } }) {
  const { t } = useTranslation();
  const red = state.openDifferences > 0 || state.lastRunFailed;
  return (
    <div
      role={red ? "alert" : "status"}
      className={`alert ${red ? "alert-error" : state.lastRunAt ? "alert-success" : "alert-warning"}`}
      data-testid="reconciliation-check"
    >
      <span>
        {state.openDifferences > 0 ? (
          t("admin.reconciliation.openCount", { count: state.openDifferences })
        ) : state.lastRunFailed ? (
          t("admin.reconciliation.lastFailed")
        ) : state.lastRunAt ? (
          <>
            {t("admin.reconciliation.agree")} <When iso={state.lastRunAt} />
          </>
        ) : (
          t("admin.reconciliation.never")
        )}{" "}
        <Link to="/admin/finance/reconciliation" className="link">
          {t("admin.finance.toReconciliation")}
        </Link>
      </span>
    </div>
  );
}

const STATUS_BADGE = { pending: "badge-info", succeeded: "badge-success", failed: "badge-error" } as const;

export default function AdminFinance() {
  const { t } = useTranslation();
  const { dateTime } = useAdminDates();
  const data = useLoaderData<typeof loader>();
  const decided = useActionData<typeof action>();
  const etb = (amount: string) => t("admin.overview.etb", { amount });
  const figures = [
    ["escrow", data.figures.escrow],
    ["owed", data.figures.owed],
    ["payoutsInTransit", data.figures.payoutsInTransit],
    ["refundsInTransit", data.figures.refundsInTransit],
    ["revenue", data.figures.revenue],
    ["providerFees", data.figures.providerFees],
    ["clearing", data.figures.clearing],
  ] as const;
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold">{t("admin.finance.title")}</h1>
          <p className="text-base-content/80">{t("admin.finance.intro")}</p>
        </div>
        <a href="/admin/finance/journal.csv" className="btn btn-sm btn-outline" download>
          {t("admin.finance.journalCsv")}
        </a>
      </header>

      <div
        role={data.balanced ? "status" : "alert"}
        className={`alert ${data.balanced ? "alert-success" : "alert-error"}`}
        data-testid="books-check"
      >
        {data.balanced ? t("admin.finance.balanced") : t("admin.finance.unbalanced", { total: data.total })}
      </div>
      <ReconciliationBanner state={data.reconciliation} />

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="finance-figures">
        {figures.map(([key, value]) => (
          <div key={key} className="min-w-0 rounded-box border border-base-300 p-3">
            <dt className="text-sm break-words text-base-content/80">{t(`admin.finance.figures.${key}`)}</dt>
            <dd className="text-xl font-bold" data-testid={`figure-${key}`}>
              {etb(value)}
            </dd>
          </div>
        ))}
      </dl>

      <Part title={t("admin.finance.waiting")}>
        <p>
          <Link to="/admin/finance/disputes" className="link" data-testid="open-disputes">
            {t("admin.finance.openDisputes", { count: data.waiting.openDisputes })}
          </Link>
        </p>
        {data.waiting.inReview.length > 0 ? (
          <>
            <p>{t("admin.finance.inReview", { count: data.waiting.inReview.length })}</p>
            <ul className="flex flex-col gap-1 text-sm" data-testid="in-review">
              {data.waiting.inReview.map((row) => (
                <li key={row.consultationId} className="flex flex-wrap items-center gap-2">
                  <Link to={`/admin/consultations/${row.consultationId}`} className="link">
                    #{formatConsultationId(row.consultationId)} {row.title}
                  </Link>
                  <When iso={row.since} />
                </li>
              ))}
            </ul>
            <p className="text-sm text-base-content/80">{t("admin.finance.inReviewExplain")}</p>
          </>
        ) : null}
      </Part>

      <Part title={t("admin.finance.refunds")}>
        {data.refunds.length === 0 ? (
          <p className="text-sm text-base-content/70">{t("admin.finance.noRefunds")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" data-testid="refunds-in-flight">
            {data.refunds.map((refund) => (
              <li key={refund.id} className="flex flex-col gap-1 py-2 text-sm" data-testid="refund-row" data-reference={refund.reference}>
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{etb(refund.amount)}</span>
                  <span className={`badge badge-sm ${STATUS_BADGE[refund.status]}`}>
                    {t(`admin.finance.refundStatus.${refund.status}`)}
                  </span>
                  <span>{t(`admin.finance.refundReasons.${refund.reason}`)}</span>
                  <Link to={`/admin/consultations/${refund.consultationId}`} className="link">
                    #{formatConsultationId(refund.consultationId)}
                  </Link>
                  <When iso={refund.createdAt} />
                </span>
                <span className="font-mono text-xs break-all text-base-content/70">{refund.reference}</span>
                {refund.lastError ? (
                  <span className={refund.status === "failed" ? "text-error" : ""}>
                    {t("admin.finance.providerSaid", { count: refund.attempts, error: refund.lastError })}
                  </span>
                ) : null}
                {refund.reviewReason ? (
                  <span className="badge badge-sm badge-warning">{t(`admin.finance.stuck.${refund.reviewReason}`)}</span>
                ) : null}
                {refund.canRetry ? (
                  <Form method="post" className="flex flex-wrap gap-2">
                    <input type="hidden" name="refundId" value={refund.id} />
                    <SubmitButton name="intent" value={RETRY_REFUND_INTENT} className="btn btn-sm btn-outline" busyLabel={t("forms.busy")}>
                      {t("admin.finance.retryRefund")}
                    </SubmitButton>
                  </Form>
                ) : null}
                {refund.status === "pending" || refund.canRetry ? (
                  <MoneyDecisionForms
                    subject="refund"
                    id={refund.id}
                    pending={refund.status === "pending"}
                    error={decided?.decided === refund.id ? decided.error : null}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part
        title={t("admin.finance.payouts")}
        action={
          <Form method="post">
            <SubmitButton name="intent" value={RUN_PAYOUTS_INTENT} className="btn btn-sm btn-primary" busyLabel={t("forms.busy")}>
              {t("admin.finance.runPayouts")}
            </SubmitButton>
          </Form>
        }
      >
        <p className="text-sm text-base-content/80">{t("admin.finance.payoutsExplain")}</p>
        {data.payouts.length === 0 ? (
          <p className="text-sm text-base-content/70">{t("admin.finance.noPayouts")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" data-testid="payouts-in-flight">
            {data.payouts.map((payout) => (
              <li key={payout.id} className="flex flex-col gap-1 py-2 text-sm" data-testid="payout-row">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{etb(payout.amount)}</span>
                  <span className={`badge badge-sm ${STATUS_BADGE[payout.status]}`}>
                    {t(`admin.finance.payoutStatus.${payout.status}`)}
                  </span>
                  <span>{t("admin.finance.payoutTo", { doctor: payout.doctor, bank: payout.bankName })}</span>
                  <When iso={payout.createdAt} />
                </span>
                <span className="font-mono text-xs break-all text-base-content/70">{payout.reference}</span>
                {payout.failureReason ? (
                  <span className={payout.status === "failed" ? "text-error" : ""}>
                    {t("admin.finance.payoutFailure", { reason: payout.failureReason })}
                  </span>
                ) : null}
                {payout.reviewReason ? (
                  <span className="badge badge-sm badge-warning">{t(`admin.finance.stuck.${payout.reviewReason}`)}</span>
                ) : null}
                {payout.status === "pending" ? (
                  <MoneyDecisionForms
                    subject="payout"
                    id={payout.id}
                    pending
                    error={decided?.decided === payout.id ? decided.error : null}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {data.onHold.length > 0 ? (
          <>
            <h3 className="font-semibold">{t("admin.finance.heldAccounts")}</h3>
            <p className="text-sm text-base-content/80">{t("admin.finance.heldAccountsExplain")}</p>
            <ul className="flex flex-col divide-y divide-base-300" data-testid="payout-accounts-held">
              {data.onHold.map((account) => (
                <li key={account.doctorId} className="py-2 text-sm">
                  {t("admin.finance.heldAccount", {
                    doctor: account.doctor,
                    bank: account.bank,
                    last4: account.last4,
                    date: dateTime(account.startsAt),
                  })}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {data.owedUnpaid.length > 0 ? (
          <>
            <h3 className="font-semibold">{t("admin.finance.owedUnpaid")}</h3>
            <p className="text-sm text-base-content/80">{t("admin.finance.owedUnpaidExplain")}</p>
            <ul className="flex flex-col divide-y divide-base-300">
              {data.owedUnpaid.map((doctor) => (
                <li key={doctor.doctorId} className="flex flex-wrap items-center gap-2 py-2 text-sm" data-testid="owed-unpaid">
                  <span className="font-semibold">{etb(doctor.amount)}</span>
                  <Link to={`/admin/doctors/${doctor.doctorId}`} className="link">
                    {doctor.doctor}
                  </Link>
                  {doctor.reasons.map((reason) => (
                    <span key={reason} className="badge badge-sm badge-warning">
                      {t(`admin.finance.owedUnpaidReasons.${reason}`)}
                    </span>
                  ))}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {data.paid.length > 0 ? (
          <>
            <h3 className="font-semibold">{t("admin.finance.recentlyPaid")}</h3>
            <ul className="flex flex-col divide-y divide-base-300" data-testid="payouts-paid">
              {data.paid.map((payout) => (
                <li key={payout.reference} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                  <span className="font-semibold">{etb(payout.amount)}</span>
                  <span>{payout.doctor}</span>
                  <When iso={payout.settledAt} />
                  <span className="font-mono text-xs break-all text-base-content/70">{payout.reference}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Part>

      <Part title={t("admin.finance.accounts")}>
        <div className="overflow-x-auto">
          <table className="table table-sm" data-testid="books">
            <thead>
              <tr>
                <th scope="col">{t("admin.finance.account")}</th>
                <th scope="col" className="text-end">
                  {t("admin.finance.balance")}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.balances.map(({ account, balance }) => (
                <tr key={account}>
                  <th scope="row" className="font-normal">
                    {t(`admin.finance.accountNames.${account}`)}
                  </th>
                  <td className="text-end font-mono">{balance}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t("admin.finance.sum")}</th>
                <td className="text-end font-mono" data-testid="books-total">
                  {data.total}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="text-xs text-base-content/70">{t("admin.finance.signs")}</p>
      </Part>
    </section>
  );
}
