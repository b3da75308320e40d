import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { DifferenceDetailLine } from "~/components/admin/difference-detail";
import { NoteField } from "~/components/admin/note-field";
import { When } from "~/components/admin/when";
import { SubmitButton } from "~/components/form-basics";
import { formatConsultationId } from "~/domain/constants";
import { birrText } from "~/domain/money";
import { RECONCILE_INTENT, RESOLVE_DIFFERENCE_INTENT, ResolveDifferenceSchema } from "~/domain/money-decisions";
import { RECONCILIATION_PERIOD_DAYS } from "~/domain/reconciliation";
import { readDifferenceDetail } from "~/domain/reconciliation-details";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { reconcileWithProvider, reconciliationState } from "~/server/money/reconciliation.server";
import { resolveDifference } from "~/server/money/reconciliation-differences.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/finance/reconciliation";

// Admins and the accountant: our books against the payment service's own. The latest runs (the daily
// job's and admins'), every difference still open (red until resolved, with what each side says), a run
// on demand, and the differences resolved lately with their notes.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const t = await getTranslator(request);
  const { runs, open, resolved } = await reconciliationState(context.db);
  const amount = (santim: number | null) => (santim === null ? null : birrText(santim));
  const difference = (row: (typeof open)[number]) => ({
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    reference: row.reference,
    consultationId: row.consultationId,
    ours: amount(row.oursSantim),
    theirs: amount(row.theirsSantim),
    oursDetail: readDifferenceDetail(row.ours),
    theirsDetail: readDifferenceDetail(row.theirs),
    foundAt: row.createdAt.toISOString(),
    note: row.resolutionNote,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  });
  return {
    title: pageTitle(t("admin.reconciliation.title")),
    runs: runs.map((run) => ({
      id: run.id,
      at: run.createdAt.toISOString(),
      byAdmin: run.requestedBy !== null,
      finished: run.finishedAt !== null,
      error: run.error !== null,
      transactions: run.transactionsCompared,
      transfers: run.transfersCompared,
      differences: run.differencesFound,
      providerBalance: amount(run.providerBalanceSantim),
      booksBalance: amount(run.booksBalanceSantim),
    })),
    open: open.map(difference),
    resolved: resolved.map(difference),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// A run now, or one difference resolved with a note (once: a second click or a second admin is told).
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request } = args;
  const formData = await readFormData(request);
  const now = new Date();
  if (formData.get("intent") === RECONCILE_INTENT) {
    const report = await reconcileWithProvider(context.cloudflare.env, context.config, now, { adminId: admin.userId });
    return redirectWithToast(
      PAGE,
      report.error
        ? { kind: "error", title: "admin.reconciliation.toasts.unreachable" }
        : { kind: "success", title: "admin.reconciliation.toasts.ran", values: { count: report.differences } },
      context.config,
    );
  }
  const submission = parseForm(formData, ResolveDifferenceSchema);
  if (submission.status !== "success") {
    const differenceId = String(formData.get("differenceId") ?? "");
    const { note } = translatedFieldErrors(await getTranslator(request), submission);
    if (!note) return redirectWithToast(PAGE, { kind: "error", title: "admin.reconciliation.errors.notFound" }, context.config);
    return data({ differenceId, error: note }, { status: 400 });
  }
  const resolved = await resolveDifference(context.db, admin.userId, submission.value.differenceId, submission.value.note, now);
  return redirectWithToast(
    PAGE,
    resolved
      ? { kind: "success", title: "admin.reconciliation.toasts.resolved" }
      : { kind: "error", title: "admin.reconciliation.errors.notOpen" },
    context.config,
  );
}

type Difference = ReturnType<typeof useLoaderData<typeof loader>>["open"][number];

function DifferenceCard({ row }: { row: Difference }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const error = actionData?.differenceId === row.id ? actionData.error : null;
  const etb = (amount: string | null) => (amount === null ? t("admin.reconciliation.none") : t("admin.overview.etb", { amount }));
  return (
    <li
      className={`flex flex-col gap-2 rounded-box border p-3 text-sm ${row.resolvedAt ? "border-base-300" : "border-error"}`}
      data-testid="difference"
      data-kind={row.kind}
      data-reference={row.reference}
    >
      <span className="flex flex-wrap items-center gap-2">
        <span className={`badge badge-sm ${row.resolvedAt ? "badge-ghost" : "badge-error"}`}>
          {t(`admin.reconciliation.kinds.${row.kind}`)}
        </span>
        <span>{t(`admin.reconciliation.subjects.${row.subject}`)}</span>
        {row.consultationId ? (
          <Link to={`/admin/consultations/${row.consultationId}`} className="link">
            #{formatConsultationId(row.consultationId)}
          </Link>
        ) : null}
        <When iso={row.foundAt} />
      </span>
      <span className="font-mono text-xs break-all text-base-content/70">{row.reference}</span>
      <dl className="grid gap-1 sm:grid-cols-2">
        <div>
          <dt className="text-xs text-base-content/80">{t("admin.reconciliation.ours")}</dt>
          <dd className="font-semibold">{etb(row.ours)}</dd>
          <DifferenceDetailLine detail={row.oursDetail} amount={row.ours} />
        </div>
        <div>
          <dt className="text-xs text-base-content/80">{t("admin.reconciliation.theirs")}</dt>
          <dd className="font-semibold">{etb(row.theirs)}</dd>
          <DifferenceDetailLine detail={row.theirsDetail} amount={row.theirs} />
        </div>
      </dl>
      {row.resolvedAt ? (
        <p>
          {t("admin.reconciliation.resolvedWith")} <span className="whitespace-pre-wrap">{row.note}</span> (<When iso={row.resolvedAt} />)
        </p>
      ) : (
        <Form method="post" className="flex flex-col gap-2" noValidate>
          <input type="hidden" name="differenceId" value={row.id} />
          <NoteField id={`${row.id}-note`} label={t("admin.reconciliation.note")} error={error} />
          <SubmitButton
            name="intent"
            value={RESOLVE_DIFFERENCE_INTENT}
            className="btn btn-sm btn-outline self-start"
            busyLabel={t("forms.busy")}
          >
            {t("admin.reconciliation.resolve")}
          </SubmitButton>
        </Form>
      )}
    </li>
  );
}

export default function AdminReconciliation() {
  const { t } = useTranslation();
  const { runs, open, resolved } = useLoaderData<typeof loader>();
  const last = runs[0];
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold">{t("admin.reconciliation.title")}</h1>
          <p className="text-base-content/80">{t("admin.reconciliation.intro", { days: RECONCILIATION_PERIOD_DAYS })}</p>
        </div>
        <Form method="post">
          <SubmitButton name="intent" value={RECONCILE_INTENT} className="btn btn-sm btn-primary" busyLabel={t("forms.busy")}>
            {t("admin.reconciliation.runNow")}
          </SubmitButton>
        </Form>
      </header>

      <div
        role={open.length > 0 || last?.error ? "alert" : "status"}
        className={`alert ${open.length > 0 || last?.error ? "alert-error" : last ? "alert-success" : "alert-warning"}`}
        data-testid="reconciliation-state"
      >
        {open.length > 0 ? (
          t("admin.reconciliation.openCount", { count: open.length })
        ) : last?.error ? (
          t("admin.reconciliation.lastFailed")
        ) : last ? (
          <span>
            {t("admin.reconciliation.agree")} <When iso={last.at} />
          </span>
        ) : (
          t("admin.reconciliation.never")
        )}
      </div>

      <section aria-labelledby="open-differences" className="flex flex-col gap-2">
        <h2 id="open-differences" className="text-lg font-bold">
          {t("admin.reconciliation.openTitle")}
        </h2>
        {open.length === 0 ? <p className="text-sm text-base-content/70">{t("admin.reconciliation.noneOpen")}</p> : null}
        <ul className="flex flex-col gap-2">
          {open.map((row) => (
            <DifferenceCard key={row.id} row={row} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="runs" className="flex flex-col gap-2">
        <h2 id="runs" className="text-lg font-bold">
          {t("admin.reconciliation.runsTitle")}
        </h2>
        {runs.length === 0 ? <p className="text-sm text-base-content/70">{t("admin.reconciliation.noRuns")}</p> : null}
        <ul className="flex flex-col divide-y divide-base-300 text-sm" data-testid="reconciliation-runs">
          {runs.map((run) => (
            <li key={run.id} className="flex flex-wrap items-center gap-2 py-2">
              <When iso={run.at} />
              <span>{t(run.byAdmin ? "admin.reconciliation.byAdmin" : "admin.reconciliation.byJob")}</span>
              {run.error ? (
                <span className="text-error">{t("admin.reconciliation.runFailed")}</span>
              ) : (
                <span>
                  {t("admin.reconciliation.runLine", {
                    transactions: run.transactions,
                    transfers: run.transfers,
                    count: run.differences,
                  })}
                </span>
              )}
              {run.providerBalance !== null && run.booksBalance !== null ? (
                <span className="text-base-content/80">
                  {t("admin.reconciliation.balances", { theirs: run.providerBalance, ours: run.booksBalance })}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {resolved.length > 0 ? (
        <section aria-labelledby="resolved-differences" className="flex flex-col gap-2">
          <h2 id="resolved-differences" className="text-lg font-bold">
            {t("admin.reconciliation.resolvedTitle")}
          </h2>
          <ul className="flex flex-col gap-2">
            {resolved.map((row) => (
              <DifferenceCard key={row.id} row={row} />
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
