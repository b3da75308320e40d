import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { When } from "~/components/admin/when";
import { SubmitButton } from "~/components/form-basics";
import { formatConsultationId } from "~/domain/constants";
import { DISPUTE_INTENTS, DISPUTE_RESOLUTIONS, MAX_DISPUTE_TEXT_CHARS, ResolveDisputeSchema } from "~/domain/disputes";
import { isUuid } from "~/domain/ids";
import { birrText, santimFromBirr, santimFromSum } from "~/domain/money";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { shownName } from "~/server/db/profiles.server";
import { readFormData } from "~/server/form-body.server";
import { disputesForAdmins, resolveDispute } from "~/server/money/disputes.server";
import { redirectWithToast } from "~/server/toast.server";

// Admins: the disputes queue, oldest first, each with both sides' words and the form that decides it;
// then the latest decided. Words that come from the server's texts (reasons, decisions) are worded here.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const { context, request } = args;
  const t = await getTranslator(request);
  const { open, decided } = await disputesForAdmins(context.db);
  const row = ({
    dispute,
    title,
    amountSantim,
    heldSantim,
    patientFirstName,
    patientLastName,
    patientClosedAt,
    doctorName,
  }: (typeof open)[number]) => ({
    id: dispute.id,
    consultationId: dispute.consultationId,
    title,
    amount: birrText(amountSantim),
    held: birrText(santimFromSum(heldSantim)),
    patientName: shownName(t, { firstName: patientFirstName, lastName: patientLastName, closedAt: patientClosedAt }),
    doctorName,
    reason: t(`disputes.reasons.${dispute.reason}`),
    words: dispute.patientWords,
    answer: dispute.doctorAnswer,
    openedAt: dispute.createdAt.toISOString(),
    decision: dispute.resolution
      ? t(`disputes.decision.${dispute.resolution}`, {
          refund: birrText(dispute.refundSantim ?? 0),
          release: birrText(amountSantim - (dispute.refundSantim ?? 0)),
        })
      : null,
    note: dispute.resolutionNote,
    resolvedAt: dispute.resolvedAt?.toISOString() ?? null,
  });
  return { title: pageTitle(t("admin.disputes.title")), open: open.map(row), decided: decided.map(row) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Decides one dispute: release, refund all, or refund part, with a note both sides read. Once: a second
// admin (or a second click) is told it was already decided.
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request } = args;
  const formData = await readFormData(request);
  const disputeId = formData.get("disputeId");
  if (!isUuid(disputeId))
    return redirectWithToast("/admin/finance/disputes", { kind: "error", title: "admin.disputes.errors.notFound" }, context.config);
  // What the admin wrote stays in the form when it comes back with an error.
  const values = Object.fromEntries(["resolution", "refundBirr", "note"].map((name) => [name, String(formData.get(name) ?? "")]));
  const submission = parseForm(formData, ResolveDisputeSchema);
  if (submission.status !== "success") {
    // The schema's messages are keys of the server's texts: worded here, in the admin's language.
    const errors = translatedFieldErrors(await getTranslator(request), submission);
    return data({ disputeId, errors, values }, { status: 400 });
  }
  const { resolution, refundBirr, note } = submission.value;
  const outcome = await resolveDispute(
    context.cloudflare.env,
    context,
    admin.userId,
    disputeId,
    { resolution, refundPartSantim: refundBirr ? santimFromBirr(refundBirr) : null, note },
    new Date(),
    context,
  );
  if (!outcome.ok && outcome.reason === "part_not_held") {
    const t = await getTranslator(request);
    const errors = { refundBirr: t("disputes.errors.partNotHeld", { amount: birrText(outcome.heldSantim) }) };
    return data({ disputeId, errors, values }, { status: 400 });
  }
  if (!outcome.ok) {
    const title = outcome.reason === "not_found" ? "admin.disputes.errors.notFound" : "disputes.refusals.already_resolved";
    return redirectWithToast("/admin/finance/disputes", { kind: "error", title }, context.config);
  }
  return redirectWithToast("/admin/finance/disputes", { kind: "success", title: "disputes.toasts.resolved" }, context.config);
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["open"][number];

function Words({ label, children }: { label: string; children: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs text-base-content/80">{label}</dt>
      <dd className="whitespace-pre-wrap break-words">{children}</dd>
    </div>
  );
}

function DisputeCard({ row }: { row: Row }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const mine = actionData?.disputeId === row.id ? actionData : null;
  const errors: Record<string, string> = mine?.errors ?? {};
  const values: Record<string, string> = mine?.values ?? {};
  const fieldId = (name: string) => `${row.id}-${name}`;
  const errorOf = (name: string) =>
    errors[name] ? (
      <p id={`${fieldId(name)}-error`} className="text-sm text-error">
        {errors[name]}
      </p>
    ) : null;
  return (
    <article className="card border border-base-300" data-testid="dispute" aria-labelledby={`${row.id}-title`}>
      <div className="card-body gap-3 p-4">
        <h2 id={`${row.id}-title`} className="card-title text-lg">
          <Link to={`/admin/consultations/${row.consultationId}`} className="link">
            {formatConsultationId(row.consultationId)}
          </Link>{" "}
          {row.title}
        </h2>
        <dl className="grid gap-2 sm:grid-cols-2">
          <Words label={t("admin.disputes.patient")}>{row.patientName}</Words>
          <Words label={t("admin.disputes.doctor")}>{row.doctorName}</Words>
          <Words label={t("admin.disputes.amount")}>{t("admin.overview.etb", { amount: row.amount })}</Words>
          <div className="flex flex-col">
            <dt className="text-xs text-base-content/80">{t("admin.disputes.opened")}</dt>
            <dd>
              <When iso={row.openedAt} />
            </dd>
          </div>
          <Words label={t("admin.disputes.reason")}>{row.reason}</Words>
          <Words label={t("admin.disputes.words")}>{row.words}</Words>
          <Words label={t("admin.disputes.answer")}>{row.answer ?? t("admin.disputes.noAnswer")}</Words>
        </dl>
        {row.decision ? (
          <p data-testid="decision">
            {row.decision} {row.note ? <span className="whitespace-pre-wrap">— {row.note}</span> : null}
          </p>
        ) : (
          <Form method="post" className="flex flex-col gap-3 rounded-box bg-base-200/60 p-3" noValidate>
            <input type="hidden" name="disputeId" value={row.id} />
            <fieldset className="flex flex-col gap-1" aria-describedby={errors.resolution ? `${fieldId("resolution")}-error` : undefined}>
              <legend className="font-medium">{t("admin.disputes.decide")}</legend>
              {DISPUTE_RESOLUTIONS.map((resolution) => (
                <label key={resolution} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="resolution"
                    value={resolution}
                    defaultChecked={values.resolution === resolution}
                    className="radio radio-sm"
                  />
                  {t(`admin.disputes.resolutions.${resolution}`)}
                </label>
              ))}
              {errorOf("resolution")}
            </fieldset>
            <div className="flex flex-col gap-1">
              <label htmlFor={fieldId("refundBirr")} className="font-medium">
                {t("admin.disputes.refundPart", { amount: row.held })}
              </label>
              <input
                id={fieldId("refundBirr")}
                name="refundBirr"
                defaultValue={values.refundBirr}
                inputMode="decimal"
                className="input input-sm w-40"
                aria-invalid={errors.refundBirr ? true : undefined}
                aria-describedby={errors.refundBirr ? `${fieldId("refundBirr")}-error` : undefined}
              />
              {errorOf("refundBirr")}
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={fieldId("note")} className="font-medium">
                {t("admin.disputes.note")}
              </label>
              <textarea
                id={fieldId("note")}
                name="note"
                defaultValue={values.note}
                rows={3}
                maxLength={MAX_DISPUTE_TEXT_CHARS}
                className="textarea w-full"
                aria-invalid={errors.note ? true : undefined}
                aria-describedby={errors.note ? `${fieldId("note")}-error` : undefined}
              />
              {errorOf("note")}
            </div>
            <SubmitButton
              name="intent"
              value={DISPUTE_INTENTS.resolve}
              className="btn btn-primary btn-sm self-start"
              busyLabel={t("forms.busy")}
            >
              {t("admin.disputes.submit")}
            </SubmitButton>
          </Form>
        )}
      </div>
    </article>
  );
}

export default function AdminDisputes() {
  const { t } = useTranslation();
  const { open, decided } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">{t("admin.disputes.title")}</h1>
        <p className="text-base-content/80">{t("admin.disputes.intro")}</p>
      </header>
      {open.length === 0 ? (
        <p data-testid="no-disputes">{t("admin.disputes.none")}</p>
      ) : (
        open.map((row) => <DisputeCard key={row.id} row={row} />)
      )}
      {decided.length > 0 ? (
        <>
          <h2 className="text-xl font-bold">{t("admin.disputes.decided")}</h2>
          {decided.map((row) => (
            <DisputeCard key={row.id} row={row} />
          ))}
        </>
      ) : null}
    </section>
  );
}
