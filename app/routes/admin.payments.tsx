import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { AdminListPage } from "~/components/admin/list-page";
import { When } from "~/components/admin/when";
import { FormAlert, SubmitButton } from "~/components/form-basics";
import { MARK_REFUNDED_INTENT, MAX_OUTSIDE_REFUND_NOTE_CHARS, outsideRefundNote } from "~/domain/admin-records";
import { formatConsultationId } from "~/domain/constants";
import { isUuid } from "~/domain/ids";
import { birrText } from "~/domain/money";
import { pageRequest, toPage } from "~/domain/paging";
import { getTranslator, pageTitle } from "~/i18n.server";
import { paymentsForAdmins, recordOutsideRefund, type RefundOutcome } from "~/server/admin/payment-records.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

// Admins: every payment, those awaiting a refund first, then the rest newest first; paged on the server.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const paging = pageRequest(new URL(request.url).searchParams);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("admin.payments.title")),
    payments: toPage(await paymentsForAdmins(context.db, t, paging), paging),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

type Refusal = Exclude<RefundOutcome, "refunded"> | "invalid" | "noteRequired" | "noteTooLong";
const REFUSAL_STATUS = {
  already: 409,
  not_awaiting: 409,
  in_flight: 409,
  not_found: 404,
  invalid: 400,
  noteRequired: 400,
  noteTooLong: 400,
} as const satisfies Record<Refusal, number>;
const REFUSAL_MESSAGES = {
  already: "admin.payments.errors.already",
  not_awaiting: "admin.payments.errors.notAwaiting",
  in_flight: "admin.payments.errors.inFlight",
  not_found: "admin.payments.errors.notFound",
  invalid: "admin.payments.errors.invalid",
  noteRequired: "admin.payments.errors.noteRequired",
  noteTooLong: "admin.payments.errors.noteTooLong",
} as const;

// Records a refund made outside the provider, with the admin's reason (once: a second click or admin
// is told it already is; a refund under way at the provider is left to finish).
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request } = args;
  const form = await readFormData(request);
  const paymentId = form.get("paymentId");
  const refuse = (refusal: Refusal) =>
    data({ refusal, paymentId: isUuid(paymentId) ? paymentId : null }, { status: REFUSAL_STATUS[refusal] });
  if (form.get("intent") !== MARK_REFUNDED_INTENT || !isUuid(paymentId)) return refuse("invalid");
  const note = outsideRefundNote(form.get("note"));
  if (!note.ok) return refuse(note.refusal === "required" ? "noteRequired" : "noteTooLong");
  const outcome = await recordOutsideRefund(context, request, admin.userId, paymentId, note.text, new Date());
  if (outcome !== "refunded") return refuse(outcome);
  const { search } = new URL(request.url);
  return redirectWithToast(`/admin/payments${search}`, { kind: "success", title: "admin.payments.refunded" }, context.config);
}

type Payment = ReturnType<typeof useLoaderData<typeof loader>>["payments"]["rows"][number];

function Detail({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`flex min-w-0 flex-col ${wide ? "col-span-2 md:col-span-1" : ""}`}>
      <dt className="text-xs text-base-content/80">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function MarkRefunded({ payment }: { payment: Payment }) {
  const { t } = useTranslation();
  return (
    <details className="rounded-box border border-base-300 p-3" data-testid="mark-refunded">
      <summary className="cursor-pointer font-medium">{t("admin.payments.markRefunded")}</summary>
      <Form method="post" className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="paymentId" value={payment.id} />
        <p>
          {t("admin.payments.confirmExplain", {
            amount: t("admin.overview.etb", { amount: birrText(payment.amountSantim) }),
            txRef: payment.txRef,
          })}
        </p>
        <label className="form-control flex flex-col gap-1">
          <span className="label-text">{t("admin.payments.note")}</span>
          <textarea
            name="note"
            required
            maxLength={MAX_OUTSIDE_REFUND_NOTE_CHARS}
            rows={2}
            className="textarea textarea-bordered w-full"
            aria-describedby={`note-hint-${payment.id}`}
          />
          <span id={`note-hint-${payment.id}`} className="text-xs text-base-content/70">
            {t("admin.payments.noteHint")}
          </span>
        </label>
        <SubmitButton name="intent" value={MARK_REFUNDED_INTENT} className="btn btn-primary self-start" busyLabel={t("forms.busy")}>
          {t("admin.payments.confirm")}
        </SubmitButton>
      </Form>
    </details>
  );
}

function PaymentCard({ payment }: { payment: Payment }) {
  const { t } = useTranslation();
  return (
    <li
      className={`flex flex-col gap-3 rounded-box border p-4 ${payment.awaitingRefund ? "border-warning bg-warning/10" : "border-base-300"}`}
      data-testid="payment-row"
      data-tx-ref={payment.txRef}
      data-awaiting-refund={payment.awaitingRefund ? "" : undefined}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-bold break-all">{payment.txRef}</span>
        <span className="badge badge-sm badge-outline" data-testid="payment-status">
          {t(`admin.payments.statuses.${payment.status}`)}
        </span>
        {payment.awaitingRefund ? (
          <span className="badge badge-sm badge-warning" data-testid="awaiting-refund">
            {t("admin.payments.awaitingRefund")}
          </span>
        ) : null}
        {payment.review ? (
          <span className="badge badge-sm badge-error" data-testid="needs-review">
            {t("admin.payments.needsReview")}
          </span>
        ) : null}
        {payment.refund ? (
          <span className="badge badge-sm badge-success" data-testid="refunded-badge">
            {t("admin.payments.refundedBadge")}
          </span>
        ) : null}
      </div>
      {payment.review ? (
        <div role="note" className="alert alert-error flex flex-col items-start gap-1" data-testid="review-reason">
          <p>{t(`admin.payments.reviewReasons.${payment.review.reason}`)}</p>
          <p className="text-sm break-words">
            {payment.review.providerAnswer
              ? t("admin.payments.providerSaid", {
                  status: payment.review.providerAnswer.status || "—",
                  amount: payment.review.providerAnswer.amount ?? "—",
                  currency: payment.review.providerAnswer.currency || "—",
                })
              : t("admin.payments.providerSaidNothing")}
          </p>
        </div>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Detail label={t("admin.payments.amount")}>{t("admin.overview.etb", { amount: birrText(payment.amountSantim) })}</Detail>
        <Detail label={t("admin.payments.provider")}>{t(`admin.payments.providers.${payment.provider}`)}</Detail>
        <Detail label={t("admin.records.patient")} wide>
          <span className="block">{payment.patient.name || t("admin.records.unknownPerson")}</span>
          <span className="block text-sm break-all">{payment.patient.email}</span>
        </Detail>
        <Detail label={t("admin.payments.consultation")} wide>
          <Link to={`/admin/consultations/${payment.consultationId}`} className="link" data-testid="payment-consultation">
            #{formatConsultationId(payment.consultationId)}
          </Link>{" "}
          <span className="text-sm">{payment.consultationTitle}</span>
        </Detail>
        <Detail label={t("admin.payments.created")}>
          <When iso={payment.createdAt} />
        </Detail>
        <Detail label={t("admin.payments.paid")}>
          <When iso={payment.paidAt} />
        </Detail>
        {payment.refund ? (
          <Detail label={t("admin.payments.refundedBy")} wide>
            <span data-testid="refunded-by">{payment.refund.by || t("admin.records.unknownPerson")}</span>
            {", "}
            <When iso={payment.refund.at} />
          </Detail>
        ) : null}
      </dl>
      {payment.providerRefund && !payment.refund ? (
        <p className={payment.providerRefund.status === "failed" ? "text-error" : ""} data-testid="provider-refund">
          {payment.providerRefund.status === "failed"
            ? t("admin.payments.providerRefundFailed", { error: payment.providerRefund.error ?? "" })
            : t(`admin.payments.providerRefund.${payment.providerRefund.status}`)}
        </p>
      ) : null}
      {payment.awaitingRefund && payment.providerRefund?.status !== "pending" ? <MarkRefunded payment={payment} /> : null}
    </li>
  );
}

export default function AdminPayments() {
  const { t } = useTranslation();
  const { payments } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <AdminListPage
      title={t("admin.payments.title")}
      intro={t("admin.payments.intro")}
      notice={answer?.refusal ? <FormAlert title={t("admin.payments.errors.title")} message={t(REFUSAL_MESSAGES[answer.refusal])} /> : null}
      empty={payments.rows.length > 0 ? null : t("admin.payments.none")}
      paging={payments}
    >
      <ul className="flex flex-col gap-3" data-testid="payment-list">
        {payments.rows.map((payment) => (
          <PaymentCard key={payment.id} payment={payment} />
        ))}
      </ul>
    </AdminListPage>
  );
}
