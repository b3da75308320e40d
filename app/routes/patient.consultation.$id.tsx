import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";

import { ChatPanel } from "~/components/chat/chat-panel";
import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { FormAlert } from "~/components/form-basics";
import { ConsultationTimeline } from "~/components/patient/consultation-timeline";
import { DoctorCard } from "~/components/patient/doctor-card";
import { PhotoViewer } from "~/components/photo-viewer";
import { useConsultationRoom } from "~/components/realtime/use-consultation-room";
import { useReadAgainOnTimeline } from "~/components/realtime/use-read-again-on-timeline";
import { WordedPanel } from "~/components/worded-panel";
import { CHAT_INTENTS, hasChat } from "~/domain/chat";
import { formatConsultationId } from "~/domain/constants";
import { DECISION_INTENTS, DELETE_PHOTOS_INTENT, refusalHttpStatus } from "~/domain/consultation-decisions";
import { isOpenStatus } from "~/domain/consultation-status";
import { DISPUTE_INTENTS } from "~/domain/disputes";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { DECISION_REFUSAL_MESSAGES } from "~/refusal-messages";
import { requirePatient } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session.server";
import { chatForPage, sendChatMessageFromForm } from "~/server/chat.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { patientTimeline } from "~/server/consultation-timeline.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { withdrawConsultation } from "~/server/consultations/withdraw.server";
import { feedbackOf } from "~/server/db/feedback.server";
import { latePaymentsOf } from "~/server/db/payments.server";
import { profileName } from "~/server/db/profiles.server";
import { countStoredFiles, deleteConsultationPhotos, listPhotos } from "~/server/files.server";
import { askAgainPanel } from "~/server/follow-ups.server";
import { readFormData } from "~/server/form-body.server";
import { latePaymentNotice, receiptPath } from "~/server/money/escrow-view.server";
import { redirectWithToast } from "~/server/toast.server";

import { CONFIRM_COMPLETE_INTENT, confirmCompleteAction, openDisputeAction, patientMoneyPanelsFor } from "./patient-money-actions.server";

// Shown once the consultation is completed, so a consultation under way does not ship them.
const DeletePhotosForm = lazy(() =>
  import("~/components/patient/delete-photos-form").then((module) => ({ default: module.DeletePhotosForm })),
);
const ConsultationSummary = lazy(() =>
  import("~/components/consultation-summary").then((module) => ({ default: module.ConsultationSummary })),
);

// A request's waiting screen (looking, found, declined, withdrawn): a chunk of its own, which a
// consultation already paid for (most visits of this page) never loads.
const RequestStatusPanel = lazy(() =>
  import("~/components/patient/request-status-panel").then((module) => ({ default: module.RequestStatusPanel })),
);

/** The address's mark that the patient saw the consultation end on its page (they stay on it). */
const ENDED_HERE = "ended";

// Patients: one of their own consultations (anyone else's id is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status === "awaiting_assets") throw new Response("Not Found", { status: 404 });
  const feedback = consultation.status === "completed" ? await feedbackOf(context.db, consultation.id) : null;
  // A completed consultation asks for feedback first (the feedback page shows the summary too), unless the
  // patient watched it end on this page (ENDED_HERE): it stays, with what the end changed, and asks there.
  const endedHere = new URL(request.url).searchParams.has(ENDED_HERE);
  if (consultation.status === "completed" && !feedback && !endedHere) throw redirect(`/patient/feedback/${consultation.id}`);
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const [doctor, photos, latePayments, storedFiles, timeline] = await Promise.all([
    profileName(context.db, consultation.doctorId),
    listPhotos(context.db, consultation.id),
    latePaymentsOf(context.db, consultation.id),
    countStoredFiles(context.db, consultation.id),
    patientTimeline(context.db, t, language, consultation),
  ]);
  const doctorName = t("doctorCard.name", { name: doctor?.firstName ?? "" });
  return {
    title: pageTitle(`${t("consultation.title")} ${formatConsultationId(consultation.id)}`),
    consultation: consultationForPage(consultation),
    // Decided here, so the page's script does not carry the state machine's module.
    listening: isOpenStatus(consultation.status),
    // Paid for (its chat began): never again a request's waiting screen, even if an admin cancels it.
    paidFor: consultation.startedAt !== null,
    doctorFirstName: doctor?.firstName ?? null,
    photoIds: photos.map((photo) => photo.id),
    /** Payments that could not start it: the patient is told why, and that each will be (or was) refunded (worded here, so no page ships these texts). */
    latePayments: latePayments.map((payment) => ({
      refunded: payment.refundedAt !== null,
      notice: latePaymentNotice(t, language, payment),
      receipt: { to: receiptPath(payment.id), label: t("escrow.receipt") },
    })),
    feedback: feedback && { rating: feedback.rating, message: feedback.feedbackMessage },
    moneyPanels: await patientMoneyPanelsFor(args, consultation),
    /** "Ask Dr. X again": a follow-up of this completed consultation, while one may be asked. */
    askAgain: await askAgainPanel(context.db, t, language, consultation, new Date()),
    storedFiles,
    timeline: { heading: t("timeline.heading"), ...timeline },
    chat: await chatForPage(context.cloudflare.env, t, consultation, { userId: patient.userId, pageUrl: new URL(request.url) }, doctorName),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

// The patient withdraws a request that still waits for a doctor, or sends a chat message without JavaScript.
export async function action(args: ActionFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const id = params.id ?? "";
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === CHAT_INTENTS.send) {
    const sent = await sendChatMessageFromForm(context, request, patient, id, formData);
    if (sent.ok) return redirect(`/patient/consultation/${id}`);
    return data({ refusal: null, chat: sent.failure }, { status: sent.status });
  }
  if (intent === DELETE_PHOTOS_INTENT) return deletePhotos(args, patient);
  if (intent === CONFIRM_COMPLETE_INTENT) return confirmCompleteAction(args, patient);
  if (intent === DISPUTE_INTENTS.open) return openDisputeAction(args, patient, formData);
  // The refusal's words are chosen here, so the page's script does not carry every refusal's key.
  if (intent !== DECISION_INTENTS.withdraw) return data({ refusal: DECISION_REFUSAL_MESSAGES.not_permitted }, { status: 400 });
  const outcome = await withdrawConsultation(context, request, patient, id);
  if (outcome.ok)
    return redirectWithToast(`/patient/consultation/${id}`, { kind: "success", title: "request.withdrawn.toast" }, context.config);
  return data({ refusal: DECISION_REFUSAL_MESSAGES[outcome.reason] }, { status: refusalHttpStatus(outcome.reason) });
}

/** The patient deletes every photo of their completed consultation; the page says how it went. */
async function deletePhotos({ context, request, params }: ActionFunctionArgs, patient: SessionUser) {
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  const outcome = await deleteConsultationPhotos(context.db, context.cloudflare.env.FILES, request, consultation);
  const page = `/patient/consultation/${consultation.id}`;
  if (outcome.ok)
    return redirectWithToast(page, { kind: "success", title: "photos.deleted", values: { count: outcome.deleted } }, context.config);
  if (outcome.reason === "not_completed") return data({ refusal: null, photos: "photos.onlyCompleted" as const }, { status: 409 });
  return data({ refusal: null, photos: "photos.deleteFailedBody" as const }, { status: 503 });
}

export default function PatientConsultation() {
  const { t } = useTranslation();
  const {
    consultation,
    listening,
    paidFor,
    doctorFirstName,
    photoIds,
    chat,
    latePayments,
    feedback,
    storedFiles,
    moneyPanels,
    timeline,
    askAgain,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The room says live when a doctor accepts or declines it and when it is paid; then it carries the chat, and says when it
  // ends; and, while its timeline goes on, when its money moves or it is rated.
  const live = useConsultationRoom(consultation.id, consultation.status, { enabled: listening || timeline.goesOn });
  // The money released or refunded, a dispute answered or decided, while the page is open: its panels show it.
  useReadAgainOnTimeline(live.room);
  const withChat = hasChat(live.status) && chat !== null;
  const online = live.status === "in_progress" ? (live.online ?? chat?.online ?? null) : null;
  const decline = live.decline ?? consultation.decline;
  // Cancelled by an admin while the patient watched: the page reloads what the server says of it (why, the refund).
  const revalidator = useRevalidator();
  const cancelledLive = paidFor && live.status === "cancelled" && consultation.status !== "cancelled";
  useEffect(() => {
    if (cancelledLive && revalidator.state === "idle") revalidator.revalidate();
  }, [cancelledLive, revalidator]);
  // Ended by the doctor while the patient watched: the page reads itself again where it stands (the summary,
  // the money panels' "complete" and dispute), rather than keep what was true before the end.
  const navigate = useNavigate();
  const endedLive = live.status === "completed" && consultation.status !== "completed";
  useEffect(() => {
    if (endedLive) navigate(`?${ENDED_HERE}`, { replace: true, preventScrollReset: true });
  }, [endedLive, navigate]);
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
      <Link to="/patient/dashboard" className="link text-sm">
        {t("request.waiting.backToDashboard")}
      </Link>
      <ConsultationHeader
        id={consultation.id}
        title={consultation.title}
        status={live.status}
        priority={consultation.priority}
        declined={Boolean(decline)}
      >
        {doctorFirstName && !withChat ? <p className="text-sm">{t("consultation.withDoctor", { name: doctorFirstName })}</p> : null}
      </ConsultationHeader>
      {actionData && "photos" in actionData ? <FormAlert title={t("photos.deleteFailed")} message={t(actionData.photos)} /> : null}
      {live.status === "completed" && !feedback ? (
        <div role="status" className="alert alert-info flex flex-col items-start" data-testid="consultation-ended">
          <p>{t("feedback.ended")}</p>
          <Link to={`/patient/feedback/${consultation.id}`} className="btn btn-primary btn-sm">
            {t("feedback.give")}
          </Link>
        </div>
      ) : null}
      {doctorFirstName && withChat ? <DoctorCard firstName={doctorFirstName} online={online && online.includes("doctor")} /> : null}
      {withChat ? (
        <ChatPanel
          consultationId={consultation.id}
          viewerRole="patient"
          status={live.status}
          chat={chat}
          failure={actionData && "chat" in actionData ? actionData.chat : null}
          room={live.room}
          live={listening}
        />
      ) : null}
      {actionData && "refusal" in actionData && actionData.refusal ? (
        <FormAlert title={t("consultation.errors.title")} message={t(actionData.refusal)} />
      ) : null}
      {latePayments.map((payment, index) => (
        <div
          key={index}
          role="status"
          className={`alert flex flex-col items-start ${payment.refunded ? "alert-info" : "alert-warning"}`}
          data-testid="late-payment"
        >
          <p>{payment.notice}</p>
          <Link to={payment.receipt.to} className="link">
            {payment.receipt.label}
          </Link>
        </div>
      ))}
      {paidFor ? null : (
        <Suspense fallback={null}>
          <RequestStatusPanel
            consultationId={consultation.id}
            status={live.status}
            decline={decline}
            goToPaymentWhenFound={consultation.status === "pending"}
          />
        </Suspense>
      )}
      {live.status === "accepted_awaiting_payment" && consultation.status === "accepted_awaiting_payment" ? (
        <Link to={`/patient/payment/${consultation.id}`} className="btn btn-primary">
          {t("payment.goToPayment")}
        </Link>
      ) : null}
      <ConsultationSections
        mainConcern={consultation.mainConcern}
        medicalHistory={consultation.medicalHistory}
        additionalComments={consultation.additionalComments}
      />
      {consultation.status === "completed" ? (
        <Suspense fallback={null}>
          <ConsultationSummary summary={consultation.summary} printHref={`/patient/consultation/${consultation.id}/summary`} />
        </Suspense>
      ) : null}
      {feedback ? (
        <section className="flex flex-col gap-1" data-testid="given-feedback">
          <h2 className="font-bold">{t("feedback.yours")}</h2>
          <p>{t("feedback.stars", { count: feedback.rating })}</p>
          {feedback.message ? <p className="whitespace-pre-wrap">{feedback.message}</p> : null}
        </section>
      ) : null}
      <ConsultationTimeline heading={timeline.heading} timeline={timeline} room={live.room} pageReadsAgain />
      {askAgain ? <WordedPanel {...askAgain} /> : null}
      {(actionData && "moneyPanels" in actionData ? actionData.moneyPanels : moneyPanels).map((panel) => (
        <WordedPanel key={panel.id} {...panel} />
      ))}
      <section className="flex flex-col gap-2">
        <h2 className="font-bold">{t("consultation.photos")}</h2>
        <PhotoViewer photoIds={photoIds} />
        {consultation.status === "completed" ? (
          <Suspense fallback={null}>
            <DeletePhotosForm consultationId={consultation.id} photoCount={storedFiles} />
          </Suspense>
        ) : null}
      </section>
    </article>
  );
}
