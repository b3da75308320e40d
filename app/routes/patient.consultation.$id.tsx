import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { ChatPanel } from "~/components/chat/chat-panel";
import { ConsultationHeader } from "~/components/consultation-header";
import { ConsultationSections } from "~/components/consultation-sections";
import { FormAlert } from "~/components/form-fields";
import { DoctorCard } from "~/components/patient/doctor-card";
import { RequestStatusPanel } from "~/components/patient/request-status-panel";
import { PhotoViewer } from "~/components/photo-viewer";
import { useConsultationRoom } from "~/components/realtime/use-consultation-room";
import { CHAT_INTENTS, hasChat } from "~/domain/chat";
import { formatConsultationId } from "~/domain/constants";
import { DECISION_INTENTS, DECISION_REFUSAL_MESSAGES, refusalHttpStatus } from "~/domain/consultation-decisions";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { chatForPage, sendChatMessageFromForm } from "~/server/chat.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { withdrawConsultation } from "~/server/consultations/withdraw.server";
import { profileName } from "~/server/db/profiles.server";
import { listPhotos } from "~/server/files.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

// Patients: one of their own consultations (anyone else's id is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status === "awaiting_assets") throw new Response("Not Found", { status: 404 });
  const t = await getTranslator(request);
  const [doctor, photos] = await Promise.all([profileName(context.db, consultation.doctorId), listPhotos(context.db, consultation.id)]);
  const doctorName = t("doctorCard.name", { name: doctor?.firstName ?? "" });
  return {
    title: pageTitle(`${t("consultation.title")} ${formatConsultationId(consultation.id)}`),
    consultation: consultationForPage(consultation),
    doctorFirstName: doctor?.firstName ?? null,
    photoIds: photos.map((photo) => photo.id),
    chat: await chatForPage(context.cloudflare.env, t, consultation, patient.userId, doctorName),
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
  if (intent !== DECISION_INTENTS.withdraw) return data({ refusal: "not_permitted" as const }, { status: 400 });
  const outcome = await withdrawConsultation(context, request, patient, id);
  if (outcome.ok)
    return redirectWithToast(`/patient/consultation/${id}`, { kind: "success", title: "request.withdrawn.toast" }, context.config);
  return data({ refusal: outcome.reason }, { status: refusalHttpStatus(outcome.reason) });
}

export default function PatientConsultation() {
  const { t } = useTranslation();
  const { consultation, doctorFirstName, photoIds, chat } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Until it is paid for, the room says live when a doctor accepts or declines it; then it carries the chat.
  const listening = ["pending", "accepted_awaiting_payment", "in_progress"].includes(consultation.status);
  const live = useConsultationRoom(consultation.id, consultation.status, { enabled: listening });
  const withChat = hasChat(live.status) && chat !== null;
  const online = live.status === "in_progress" ? (live.online ?? chat?.online ?? null) : null;
  const decline = live.decline ?? consultation.decline;
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
      {actionData?.refusal ? (
        <FormAlert title={t("consultation.errors.title")} message={t(DECISION_REFUSAL_MESSAGES[actionData.refusal])} />
      ) : null}
      <RequestStatusPanel
        consultationId={consultation.id}
        status={live.status}
        decline={decline}
        goToPaymentWhenFound={consultation.status === "pending"}
      />
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
      <section className="flex flex-col gap-2">
        <h2 className="font-bold">{t("consultation.photos")}</h2>
        <PhotoViewer photoIds={photoIds} />
      </section>
    </article>
  );
}
