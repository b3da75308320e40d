import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { ChatPanel } from "~/components/chat/chat-panel";
import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { DeclineForm } from "~/components/doctor/decline-form";
import { SummaryForm } from "~/components/doctor/summary-form";
import { FormAlert, SubmitButton } from "~/components/form-basics";
import { IntakeSummary } from "~/components/intake-summary";
import { PaymentCountdown } from "~/components/payment-countdown";
import { PhotoViewer } from "~/components/photo-viewer";
import { useConsultationRoom } from "~/components/realtime/use-consultation-room";
import { useReadAgainOnTimeline } from "~/components/realtime/use-read-again-on-timeline";
import { useStillWaiting } from "~/components/realtime/use-still-waiting";
import { WordedPanel } from "~/components/worded-panel";
import { CHAT_INTENTS, hasChat } from "~/domain/chat";
import { ACCEPT_CONFIRMATION_SHOWN_MS, formatConsultationId } from "~/domain/constants";
import { CLOSING_INTENTS, type ClosingRefusal } from "~/domain/consultation-closing";
import { DECISION_INTENTS, type DecisionRefusal, refusalHttpStatus } from "~/domain/consultation-decisions";
import { intakeOf } from "~/domain/consultation-request";
import { isActiveStatus } from "~/domain/consultation-status";
import { DeclineSchema } from "~/domain/decline-schema";
import { DISPUTE_INTENTS } from "~/domain/disputes";
import { SummarySchema } from "~/domain/summary-schema";
import type { WordedPanelProps } from "~/domain/views/panel-words";
import { parseForm } from "~/forms";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { CLOSING_REFUSAL_MESSAGES, DECISION_REFUSAL_MESSAGES } from "~/refusal-messages";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { chatForPage, sendChatMessageFromForm } from "~/server/chat.server";
import { consultationOrWhyGone } from "~/server/consultation-access.server";
import { consultationForPage, doctorClosingTexts } from "~/server/consultation-view.server";
import { acceptConsultation } from "~/server/consultations/accept.server";
import { declineConsultation } from "~/server/consultations/decline.server";
import { endConsultation } from "~/server/consultations/end.server";
import { saveSummary } from "~/server/consultations/summary.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { profileName, shownName } from "~/server/db/profiles.server";
import { listPhotos } from "~/server/files.server";
import { earlierConsultationPanel } from "~/server/follow-ups.server";
import { readFormData } from "~/server/form-body.server";
import { photoCaption } from "~/server/guided-photos.server";
import { intakeView } from "~/server/intake-words.server";
import { doctorMoneyPanel } from "~/server/money/escrow-view.server";
import { redirectWithToast } from "~/server/toast.server";

import { answerDisputeAction } from "./doctor.consultation.$id.server";

// Shown once the consultation is completed, so a consultation under way does not ship it.
const ConsultationSummary = lazy(() =>
  import("~/components/consultation-summary").then((module) => ({ default: module.ConsultationSummary })),
);

// Active doctors: a waiting request (any doctor) or one of their own consultations. Reading it is audited.
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request, params } = args;
  const t = await getTranslator(request);
  const { consultation, gone } = await consultationOrWhyGone(context, request, doctor, params.id ?? "");
  // Another doctor took it, or it was declined or withdrawn: said plainly, nothing of it shown.
  if (gone) return data({ title: pageTitle(t("consultation.gone.title")), gone, page: null }, { status: 409 });
  const language = await detectLanguage(request);
  const [patient, photos] = await Promise.all([profileName(context.db, consultation.patientId), listPhotos(context.db, consultation.id)]);
  // The patient's full name is for their own doctor; doctors deciding on a request see the first name.
  const patientName = shownName(t, patient, { firstNameOnly: consultation.doctorId !== doctor.userId });
  return data({
    title: pageTitle(`${t("consultation.title")} ${formatConsultationId(consultation.id)}`),
    gone: null,
    page: {
      consultation: consultationForPage(consultation),
      intake: intakeView(t, intakeOf(consultation)),
      patientName,
      photoIds: photos.map((photo) => photo.id),
      // What each photo shows, as the patient said (kind and body area), in the doctor's words.
      photoCaptions: photos.map((photo) => photoCaption(t, photo)),
      // For the doctor the consultation is with (null for a doctor deciding on a request).
      chat: await chatForPage(
        context.cloudflare.env,
        t,
        consultation,
        { userId: doctor.userId, pageUrl: new URL(request.url) },
        patientName,
      ),
      closingTexts: doctorClosingTexts(t),
      dispute: await doctorMoneyPanel(context.db, t, language, consultation.id, doctor.userId),
      /** A follow-up: the consultation it continues, beside it. */
      earlier: await earlierConsultationPanel(context.db, request, t, language, consultation, doctor.userId),
    },
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

/** Every answer of the action has the same fields; each form reads its own. */
const NO_ANSWER = {
  intent: null as string | null,
  refusal: null as DecisionRefusal | null,
  decline: null as SubmissionResult<string[]> | null,
  summary: null as SubmissionResult<string[]> | null,
  closingRefusal: null as ClosingRefusal | null,
  /** The dispute panel again, with the answer form's errors in the doctor's words. */
  dispute: null as WordedPanelProps | null,
};

export async function action(args: ActionFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request, params } = args;
  const id = params.id ?? "";
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === CHAT_INTENTS.send) {
    const sent = await sendChatMessageFromForm(context, request, doctor, id, formData);
    if (sent.ok) return redirect(`/doctor/consultation/${id}`);
    return data({ ...NO_ANSWER, intent, chat: sent.failure }, { status: sent.status });
  }
  if (intent === CLOSING_INTENTS.saveSummary || intent === CLOSING_INTENTS.end) {
    const submission = parseForm(formData, SummarySchema);
    if (submission.status !== "success") return data({ ...NO_ANSWER, intent, summary: submission.reply() }, { status: 400 });
    const ending = submission.value.intent === CLOSING_INTENTS.end;
    const outcome = ending
      ? await endConsultation(context, request, doctor, id, submission.value)
      : await saveSummary(context.db, doctor, id, submission.value);
    if (outcome.ok && ending) return redirect("/doctor/thank-you");
    if (outcome.ok)
      return redirectWithToast(`/doctor/consultation/${id}`, { kind: "success", title: "doctor.closing.saved" }, context.config);
    const answer = { ...NO_ANSWER, intent, summary: submission.reply(), closingRefusal: outcome.reason };
    return data(answer, { status: outcome.reason === "not_found" ? 404 : 409 });
  }
  if (intent === DISPUTE_INTENTS.answer) {
    const panelWithErrors = await answerDisputeAction(args, doctor, formData);
    return data({ ...NO_ANSWER, intent, dispute: panelWithErrors }, { status: 400 });
  }
  if (intent === DECISION_INTENTS.decline) {
    const submission = parseForm(formData, DeclineSchema);
    if (submission.status !== "success") {
      // No longer waiting, the decline form is gone from the page: that is the answer, not its field errors.
      const waiting = await findConsultationById(context.db, id);
      const refusal: DecisionRefusal | null = !waiting ? "not_found" : waiting.status === "pending" ? null : "not_waiting";
      if (refusal) return data({ ...NO_ANSWER, intent, refusal }, { status: refusalHttpStatus(refusal) });
      return data({ ...NO_ANSWER, intent, decline: submission.reply() }, { status: 400 });
    }
    const outcome = await declineConsultation(context, request, doctor, id, submission.value);
    if (outcome.ok) return redirectWithToast("/doctor/consultations", { kind: "success", title: "consultation.declined" }, context.config);
    return data(
      { ...NO_ANSWER, intent, refusal: outcome.reason, decline: submission.reply() },
      { status: refusalHttpStatus(outcome.reason) },
    );
  }
  if (intent !== DECISION_INTENTS.accept) return data({ ...NO_ANSWER, refusal: "not_permitted" as const }, { status: 400 });
  const outcome = await acceptConsultation(context, request, doctor, id);
  if (outcome.ok) return data({ ...NO_ANSWER, intent });
  return data({ ...NO_ANSWER, intent, refusal: outcome.reason }, { status: refusalHttpStatus(outcome.reason) });
}

export default function DoctorConsultationRoute() {
  const loaded = useLoaderData<typeof loader>();
  return loaded.gone ? <NoLongerWaiting why={loaded.gone} /> : <DoctorConsultation {...loaded.page} />;
}

function NoLongerWaiting({ why }: { why: DecisionRefusal }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{t("consultation.gone.title")}</h1>
      <p data-testid="gone-message">{t(DECISION_REFUSAL_MESSAGES[why])}</p>
      <Link to="/doctor/consultations" className="btn btn-primary">
        {t("consultation.backToList")}
      </Link>
    </section>
  );
}

type PageData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["page"]>;

function DoctorConsultation({
  consultation,
  intake,
  patientName,
  photoIds,
  photoCaptions,
  chat,
  closingTexts,
  dispute,
  earlier,
}: PageData) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  // The room admits only the patient and the assigned doctor, so this page joins it once the request is this doctor's.
  const listening = consultation.status !== "pending";
  const { status, reason, room } = useConsultationRoom(consultation.id, consultation.status, { enabled: listening });
  // A dispute opened or decided while the page is open: its panel shows it.
  useReadAgainOnTimeline(room);
  // Paid while this page was open: heard live, or found on (re)connecting by a page loaded before it
  // (a socket that joined or came back after the payment hears the status, not the news).
  const paidJustNow = status === "in_progress" && (reason === "paid" || consultation.status === "accepted_awaiting_payment");
  // Until this doctor accepts, the room is not theirs to join; the lobby says when the request is taken.
  const stillWaiting = useStillWaiting(consultation.id, consultation.status === "pending");
  // The confirmation shows for a few seconds after this page's own accept.
  const [confirmationDoneFor, setConfirmationDoneFor] = useState<typeof actionData>(undefined);
  const acceptedHere = actionData?.intent === DECISION_INTENTS.accept && actionData.refusal === null;
  const justAccepted = acceptedHere && confirmationDoneFor !== actionData;
  // Focus goes to the news: "Consultation accepted".
  const acceptedHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (acceptedHere) acceptedHeading.current?.focus();
  }, [acceptedHere]);
  useEffect(() => {
    if (!acceptedHere) return;
    const timer = window.setTimeout(() => setConfirmationDoneFor(actionData), ACCEPT_CONFIRMATION_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [actionData, acceptedHere]);
  const currentStatus = acceptedHere && status === "pending" ? "accepted_awaiting_payment" : status;
  const takenElsewhere = currentStatus === "pending" && !stillWaiting && !acceptedHere;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
      <Link to="/doctor/consultations" className="link text-sm">
        {t("consultation.backToList")}
      </Link>
      <ConsultationHeader id={consultation.id} title={consultation.title} status={currentStatus} priority={consultation.priority}>
        <p className="text-sm text-base-content/80">{t("consultation.patient", { name: patientName })}</p>
      </ConsultationHeader>
      {actionData?.refusal ? (
        <FormAlert title={t("consultation.errors.title")} message={t(DECISION_REFUSAL_MESSAGES[actionData.refusal])} />
      ) : null}
      {takenElsewhere && !actionData ? (
        <FormAlert title={t("consultation.errors.title")} message={t("consultation.errors.alreadyAccepted")} />
      ) : null}
      {justAccepted ? (
        <div role="status" className="alert alert-success" data-testid="accept-confirmation">
          <div>
            <h2 ref={acceptedHeading} tabIndex={-1} className="font-bold">
              {t("consultation.acceptedTitle")}
            </h2>
            <p>{t("consultation.acceptedBody")}</p>
          </div>
        </div>
      ) : currentStatus === "accepted_awaiting_payment" ? (
        <div role="status" className="alert alert-info flex flex-wrap justify-between" data-testid="awaiting-payment">
          <span>{t("consultation.waitingForPayment")}</span>
          {consultation.paymentDeadline ? (
            <span>
              {closingTexts.patientTimeLeft} <PaymentCountdown deadline={consultation.paymentDeadline} className="font-mono font-bold" />
            </span>
          ) : null}
        </div>
      ) : null}
      {paidJustNow ? (
        <div role="status" className="alert alert-success" data-testid="payment-received">
          <div>
            <p className="font-bold">{closingTexts.paymentReceived}</p>
            <p>{closingTexts.paymentReceivedBody}</p>
          </div>
        </div>
      ) : null}
      {chat && hasChat(currentStatus) ? (
        <ChatPanel
          consultationId={consultation.id}
          viewerRole="doctor"
          status={currentStatus}
          chat={chat}
          failure={actionData && "chat" in actionData ? actionData.chat : null}
          room={room}
          live={listening}
        />
      ) : null}
      <IntakeSummary intake={intake} />
      <ConsultationSections
        mainConcern={consultation.mainConcern}
        medicalHistory={consultation.medicalHistory}
        additionalComments={consultation.additionalComments}
      />
      {earlier ? <WordedPanel {...earlier} /> : null}
      <section className="flex flex-col gap-2">
        <h2 className="font-bold">{t("consultation.photos")}</h2>
        <PhotoViewer photoIds={photoIds} captions={photoCaptions} />
      </section>
      {actionData?.closingRefusal ? (
        <FormAlert
          title={actionData.intent === CLOSING_INTENTS.end ? closingTexts.endError : closingTexts.saveFailed}
          message={closingTexts.messages[CLOSING_REFUSAL_MESSAGES[actionData.closingRefusal]]!}
        />
      ) : actionData?.intent === CLOSING_INTENTS.end && actionData.summary?.error ? (
        <FormAlert
          title={closingTexts.endError}
          message={
            closingTexts.messages[Object.values(actionData.summary.error).flat()[0] ?? ""] ?? closingTexts.messages["forms.errors.invalid"]!
          }
        />
      ) : null}
      {(actionData?.dispute ?? dispute) ? <WordedPanel {...(actionData?.dispute ?? dispute)!} /> : null}
      {currentStatus === "completed" ? (
        <Suspense fallback={null}>
          <ConsultationSummary summary={consultation.summary} printHref={`/doctor/consultation/${consultation.id}/summary`} />
        </Suspense>
      ) : isActiveStatus(currentStatus) ? (
        <SummaryForm
          saved={consultation.summary}
          savedNewPhotosInDays={consultation.newPhotosInDays}
          lastResult={actionData?.summary}
          canEnd={currentStatus === "in_progress"}
          texts={closingTexts}
        />
      ) : null}
      {currentStatus === "pending" && !takenElsewhere ? (
        <section className="flex flex-col gap-3">
          <Form method="post">
            <SubmitButton name="intent" value={DECISION_INTENTS.accept} className="btn btn-primary" busyLabel={t("forms.busy")}>
              {t("doctor.requests.accept")}
            </SubmitButton>
          </Form>
          <DeclineForm lastResult={actionData?.decline ?? undefined} />
        </section>
      ) : null}
    </article>
  );
}
