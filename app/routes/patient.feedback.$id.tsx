import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";

import { ConsultationSummary } from "~/components/consultation-summary";
import { DeletePhotosForm } from "~/components/patient/delete-photos-form";
import { FeedbackForm } from "~/components/patient/feedback-form";
import { useHydrated } from "~/components/use-hydrated";
import { WordedPanel } from "~/components/worded-panel";
import { DISPUTE_INTENTS } from "~/domain/disputes";
import { FeedbackSchema } from "~/domain/feedback";
import { parseForm } from "~/forms";
import { getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { feedbackOf, saveFeedback } from "~/server/db/feedback.server";
import { profileName } from "~/server/db/profiles.server";
import { countStoredFiles } from "~/server/files.server";
import { readFormData } from "~/server/form-body.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { redirectWithToast } from "~/server/toast.server";

import { CONFIRM_COMPLETE_INTENT, confirmCompleteAction, openDisputeAction, patientMoneyPanelsFor } from "./patient-money-actions.server";

// The room's news comes once the page is up: a chunk of its own, which the server never draws.
const TimelineNews = lazy(() => import("~/components/realtime/timeline-news").then((module) => ({ default: module.TimelineNews })));

/** Only a completed consultation of the patient's own, not yet rated, is rated here; anything else goes to its page. */
async function consultationToRate(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status !== "completed" || (await feedbackOf(context.db, consultation.id)))
    throw redirect(`/patient/consultation/${consultation.id}`);
  return { patient, consultation };
}

// Patients: the doctor's summary of a completed consultation, then the rating and feedback on it.
export async function loader(args: LoaderFunctionArgs) {
  const { consultation } = await consultationToRate(args);
  const { context, request } = args;
  const [doctor, photoCount] = await Promise.all([
    profileName(context.db, consultation.doctorId),
    countStoredFiles(context.db, consultation.id),
  ]);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("feedback.title")),
    consultation: consultationForPage(consultation),
    doctorFirstName: doctor?.firstName ?? "",
    photoCount,
    moneyPanels: await patientMoneyPanelsFor(args, consultation),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const { patient, consultation } = await consultationToRate(args);
  const { context, request } = args;
  const formData = await readFormData(request);
  // The money panels' forms post to the page they are on: a dispute with errors comes back here, with them.
  const intent = formData.get("intent");
  if (intent === CONFIRM_COMPLETE_INTENT) return confirmCompleteAction(args, patient);
  if (intent === DISPUTE_INTENTS.open) return openDisputeAction(args, patient, formData);
  const submission = parseForm(formData, FeedbackSchema);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const saved = await saveFeedback(context.db, consultation, submission.value, new Date());
  if (!saved)
    return redirectWithToast(`/patient/consultation/${consultation.id}`, { kind: "info", title: "feedback.already" }, context.config);
  await tellTimelineMoved(context.cloudflare.env, consultation.id);
  // "Then to /", which sends a signed-in patient on to their dashboard: straight there, so the thanks is seen.
  return redirectWithToast("/patient/dashboard", { kind: "success", title: "feedback.thanks" }, context.config);
}

export default function PatientFeedback() {
  const { t } = useTranslation();
  const { consultation, doctorFirstName, photoCount, moneyPanels } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  return (
    <article className="mx-auto flex max-w-2xl flex-col gap-5 px-4 py-6">
      {hydrated ? (
        <Suspense fallback={null}>
          <TimelineNews consultationId={consultation.id} />
        </Suspense>
      ) : null}
      <h1 className="text-2xl font-bold">{t("feedback.title")}</h1>
      <p>{t("feedback.intro", { name: doctorFirstName })}</p>
      <ConsultationSummary summary={consultation.summary} printHref={`/patient/consultation/${consultation.id}/summary`} />
      {(actionData && "moneyPanels" in actionData ? actionData.moneyPanels : moneyPanels).map((panel) => (
        <WordedPanel key={panel.id} {...panel} />
      ))}
      <FeedbackForm lastResult={actionData && "result" in actionData ? actionData.result : undefined} />
      <DeletePhotosForm consultationId={consultation.id} photoCount={photoCount} />
    </article>
  );
}
