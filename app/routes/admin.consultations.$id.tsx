import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { When } from "~/components/admin/when";
import { ChatLog } from "~/components/chat/chat-log";
import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { ConsultationSummary } from "~/components/consultation-summary";
import { FormAlert, SubmitButton } from "~/components/form-basics";
import { IntakeSummary } from "~/components/intake-summary";
import { PhotoViewer } from "~/components/photo-viewer";
import {
  CANCEL_PAID_INTENT,
  cancellationNote,
  MAX_OPENING_REASON_CHARS,
  MAX_OUTSIDE_REFUND_NOTE_CHARS,
  openingReason,
} from "~/domain/admin-records";
import { formatConsultationId, RATING_MAX } from "~/domain/constants";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { consultationRecord } from "~/server/admin/consultation-opening.server";
import { openingInForce, recordOpening } from "~/server/admin/opening-grant.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { cancelPaidConsultation } from "~/server/consultations/cancel-paid.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { readFormData } from "~/server/form-body.server";
import { retentionWords } from "~/server/privacy/retention-words.server";
import { redirectWithToast } from "~/server/toast.server";

/** The consultation the URL names; a malformed or unknown id is a 404, before anything is read or written. */
async function consultationOf(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const consultation = await findConsultationById(args.context.db, args.params.id);
  if (!consultation) throw new Response("Not Found", { status: 404 });
  return consultation;
}

// Admins: any consultation, read-only, once they have said why they open it (the reason is audited);
// until then, only the question.
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireAdmin(args);
  const consultation = await consultationOf(args);
  const { context, request } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const title = pageTitle(`${t("admin.consultation.title")} #${formatConsultationId(consultation.id)}`);
  // When the record is purged, worded here (the page ships none of these texts; ADR 0037).
  const retention = retentionWords(t, language, consultation);
  const opening = await openingInForce(context.db, admin.userId, consultation.id, new Date());
  if (!opening) return { title, id: consultation.id, retention, opening: null, record: null };
  // Every read within the opening is in the log too, not only the first.
  await recordAudit(context.db, request, {
    action: "consultation.viewed",
    actorId: admin.userId,
    targetType: "consultation",
    targetId: consultation.id,
  });
  return { title, id: consultation.id, retention, opening, record: await consultationRecord(context, request, consultation) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// Records the opening with its reason, then shows the consultation (a redirect, so a reload reads, never re-posts).
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args);
  const consultation = await consultationOf(args);
  const { context, request } = args;
  const form = await readFormData(request);
  if (form.get("intent") === CANCEL_PAID_INTENT) return cancelPaid(args, admin.userId, consultation.id, form);
  const reason = openingReason(form.get("reason"));
  if (!reason.ok) {
    const typed = form.get("reason");
    return data(
      { refusal: reason.refusal, typed: typeof typed === "string" ? typed.slice(0, MAX_OPENING_REASON_CHARS * 2) : "" },
      { status: 400 },
    );
  }
  await recordOpening(context.db, request, admin.userId, consultation.id, reason.text);
  return redirect(`/admin/consultations/${consultation.id}`);
}

const CANCEL_REFUSALS = {
  required: "admin.consultation.cancel.noteRequired",
  tooLong: "admin.consultation.cancel.noteTooLong",
  notOpened: "admin.consultation.cancel.notOpened",
  not_found: "admin.consultation.cancel.notInProgress",
  not_in_progress: "admin.consultation.cancel.notInProgress",
  disputed: "admin.consultation.cancel.disputed",
} as const;
type CancelRefusal = keyof typeof CANCEL_REFUSALS;

/**
 * Ends a paid consultation its doctor cannot finish, and refunds the patient in full: only within an
 * opening (the admin said why they look), with a note both people read; a second click is told it is done.
 */
async function cancelPaid(args: ActionFunctionArgs, adminId: string, consultationId: string, form: FormData) {
  const { context, request } = args;
  const refuse = (cancelRefusal: CancelRefusal, status: number) => data({ cancelRefusal }, { status });
  const now = new Date();
  if (!(await openingInForce(context.db, adminId, consultationId, now))) return refuse("notOpened", 403);
  const note = cancellationNote(form.get("note"));
  if (!note.ok) return refuse(note.refusal, 400);
  const outcome = await cancelPaidConsultation(context, request, adminId, consultationId, note.text, now);
  if (outcome !== "cancelled") return refuse(outcome, outcome === "not_found" ? 404 : 409);
  return redirectWithToast(
    `/admin/consultations/${consultationId}`,
    { kind: "success", title: "admin.consultation.cancel.done" },
    context.config,
  );
}

const REFUSAL_MESSAGES = { required: "admin.consultation.reasonRequired", tooLong: "admin.consultation.reasonTooLong" } as const;

function CancelPaidForm() {
  const { t } = useTranslation();
  const answer = useActionData<typeof action>();
  const refusal = answer && "cancelRefusal" in answer ? answer.cancelRefusal : null;
  return (
    <details className="rounded-box border border-warning p-3" data-testid="cancel-paid" open={refusal !== null}>
      <summary className="cursor-pointer font-medium">{t("admin.consultation.cancel.open")}</summary>
      <Form method="post" className="mt-3 flex flex-col gap-3">
        <p>{t("admin.consultation.cancel.explain")}</p>
        <label htmlFor="cancel-note" className="font-medium">
          {t("admin.consultation.cancel.noteLabel")}
        </label>
        <textarea
          id="cancel-note"
          name="note"
          rows={2}
          required
          maxLength={MAX_OUTSIDE_REFUND_NOTE_CHARS}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? "cancel-error" : undefined}
          className={`textarea w-full ${refusal ? "textarea-error" : ""}`}
        />
        {refusal ? (
          <p id="cancel-error" className="text-sm text-error" role="alert">
            {t(CANCEL_REFUSALS[refusal])}
          </p>
        ) : null}
        <SubmitButton name="intent" value={CANCEL_PAID_INTENT} className="btn btn-warning self-start" busyLabel={t("forms.busy")}>
          {t("admin.consultation.cancel.submit")}
        </SubmitButton>
      </Form>
    </details>
  );
}

function ReasonForm({ id }: { id: string }) {
  const { t } = useTranslation();
  const answered = useActionData<typeof action>();
  const answer = answered && "refusal" in answered ? answered : undefined;
  const errorId = "reason-error";
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8">
      <Link to="/admin/payments" className="link text-sm">
        {t("admin.consultation.back")}
      </Link>
      {answered && "cancelRefusal" in answered ? <FormAlert message={t(CANCEL_REFUSALS[answered.cancelRefusal])} /> : null}
      <h1 className="text-2xl font-bold">{t("admin.consultation.askTitle")}</h1>
      <p className="text-base-content/80">{t("admin.consultation.askIntro", { id: formatConsultationId(id) })}</p>
      <Form method="post" className="flex flex-col gap-3" data-testid="reason-form">
        <label htmlFor="reason" className="font-medium">
          {t("admin.consultation.reasonLabel")}
        </label>
        <textarea
          id="reason"
          name="reason"
          rows={3}
          defaultValue={answer?.typed ?? ""}
          aria-invalid={answer ? true : undefined}
          aria-describedby={answer ? `${errorId} reason-hint` : "reason-hint"}
          className={`textarea w-full ${answer ? "textarea-error" : ""}`}
        />
        <p id="reason-hint" className="text-sm text-base-content/80">
          {t("admin.consultation.reasonHint", { max: MAX_OPENING_REASON_CHARS })}
        </p>
        {answer ? (
          <p id={errorId} className="text-sm text-error" role="alert">
            {t(REFUSAL_MESSAGES[answer.refusal], { max: MAX_OPENING_REASON_CHARS })}
          </p>
        ) : null}
        <SubmitButton className="btn btn-primary self-start" busyLabel={t("forms.busy")}>
          {t("admin.consultation.open")}
        </SubmitButton>
      </Form>
    </section>
  );
}

type RecordData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["record"]>;

function ConsultationRecord({ record, opening }: { record: RecordData; opening: { reason: string; until: string } }) {
  const { t } = useTranslation();
  const { consultation, patient, doctor, photoIds, photoCaptions, chat, feedback } = record;
  const declined = consultation.status === "cancelled" && consultation.decline !== null;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6" data-testid="consultation-record">
      <ConsultationHeader
        id={consultation.id}
        title={consultation.title || t("admin.consultation.untitled")}
        status={consultation.status}
        priority={consultation.priority}
        declined={declined}
      >
        <p className="text-sm text-base-content/80">
          {t("admin.consultation.created")} <When iso={consultation.createdAt} />
        </p>
      </ConsultationHeader>
      <div role="note" className="alert alert-info flex flex-col items-start gap-1" data-testid="opening-note">
        <p>{t("admin.consultation.readOnly")}</p>
        <p className="break-words">
          {t("admin.consultation.yourReason")} <span className="font-medium">{opening.reason}</span>
        </p>
        <p className="text-sm">
          {t("admin.consultation.openUntil")} <When iso={opening.until} />
        </p>
      </div>
      {consultation.status === "in_progress" ? <CancelPaidForm /> : null}
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="flex min-w-0 flex-col">
          <dt className="text-xs text-base-content/80">{t("admin.records.patient")}</dt>
          <dd className="font-medium break-words" data-testid="record-patient">
            {patient?.name || t("admin.records.unknownPerson")}
          </dd>
          {patient?.email ? <dd className="text-sm break-all">{patient.email}</dd> : null}
        </div>
        <div className="flex min-w-0 flex-col">
          <dt className="text-xs text-base-content/80">{t("admin.records.doctor")}</dt>
          <dd className="font-medium break-words">{doctor?.name || t("admin.consultation.noDoctor")}</dd>
          {doctor?.email ? <dd className="text-sm break-all">{doctor.email}</dd> : null}
        </div>
      </dl>
      <IntakeSummary intake={record.intake} />
      <ConsultationSections
        mainConcern={consultation.mainConcern}
        medicalHistory={consultation.medicalHistory}
        additionalComments={consultation.additionalComments}
      />
      <section className="flex flex-col gap-2" data-testid="record-photos">
        <h2 className="font-bold">{t("consultation.photos")}</h2>
        <PhotoViewer photoIds={photoIds} captions={photoCaptions} />
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="record-chat-title">
        <h2 id="record-chat-title" className="font-bold">
          {t("admin.consultation.chat")}
        </h2>
        {chat === null ? (
          <p className="text-sm text-base-content/80">{t("admin.consultation.noChat")}</p>
        ) : chat.loadFailed ? (
          <FormAlert message={chat.texts.loadFailed} />
        ) : (
          <ChatLog
            messages={chat.messages}
            earlierHref={chat.earlierHref}
            viewerRole="doctor"
            texts={chat.texts}
            labelledBy="record-chat-title"
          />
        )}
      </section>
      {consultation.status === "completed" ? (
        <ConsultationSummary summary={consultation.summary} printHref={`/admin/consultations/${consultation.id}/summary`} />
      ) : (
        <ConsultationSummary summary={consultation.summary} />
      )}
      <section className="flex flex-col gap-1" data-testid="record-feedback">
        <h2 className="font-bold">{t("admin.consultation.feedback")}</h2>
        {feedback ? (
          <>
            <p className="font-medium">{t("admin.feedbacks.ratingValue", { rating: feedback.rating, max: RATING_MAX })}</p>
            <p className="break-words whitespace-pre-wrap">{feedback.message || t("admin.feedbacks.noMessage")}</p>
          </>
        ) : (
          <p className="text-sm text-base-content/80">{t("admin.consultation.noFeedback")}</p>
        )}
      </section>
    </article>
  );
}

export default function AdminConsultation() {
  const { id, retention, opening, record } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mx-auto max-w-3xl px-4 pt-4 text-sm text-base-content/80" data-testid="record-retention">
        {retention}
      </p>
      {opening && record ? <ConsultationRecord record={record} opening={opening} /> : <ReasonForm id={id} />}
    </>
  );
}
