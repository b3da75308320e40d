import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

import { type DetailsProgress, DetailsStep } from "~/components/request-wizard/details-step";
import { PhotoStep } from "~/components/request-wizard/photo-step";
import { RequestSidebar } from "~/components/request-wizard/sidebar";
import { StepIndicator } from "~/components/request-wizard/step-indicator";
import { WordedPanel } from "~/components/worded-panel";
import { detailsFormOf } from "~/domain/consultation-request";
import { FOLLOW_UP_PARAM, followUpRefusalHttpStatus } from "~/domain/follow-ups";
import { uuidOrNull } from "~/domain/ids";
import { DESCRIBE_PHOTO_INTENT } from "~/domain/photo-description";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { consultationForPage } from "~/server/consultation-view.server";
import { startDraftFrom } from "~/server/consultations/drafts.server";
import { findOwnConsultation } from "~/server/db/consultations.server";
import { findOwnDraft } from "~/server/db/requests.server";
import { listPhotos } from "~/server/files.server";
import { followUpIdOf, followUpRefusedPanel, wizardFollowUp } from "~/server/follow-ups.server";
import { readFormData } from "~/server/form-body.server";
import { photoStepWords } from "~/server/guided-photos.server";
import { intakeFormWords } from "~/server/intake-words.server";
import { redirectWithToast } from "~/server/toast.server";

import {
  describePhoto,
  keepDetails,
  receivePhotos,
  refusalMessages,
  removePhoto,
  submitNewConsultation,
  uploadTooLarge,
} from "./patient.new-consultation.server";

// Only the thank-you step waits live for a doctor: its realtime code loads with that step alone.
const LiveRequestStatus = lazy(() =>
  import("~/components/patient/live-request-status").then((module) => ({ default: module.LiveRequestStatus })),
);

/** What the wizard shows of the follow-up it carries: its notice, or why it cannot be sent. */
type ShownFollowUp = NonNullable<Awaited<ReturnType<typeof wizardFollowUp>>>["shown"];

function stepOf(url: URL): 1 | 2 | 3 {
  const step = Number(url.searchParams.get("step"));
  return step === 2 || step === 3 ? step : 1;
}

// Patients only. Three steps, each a real form post: photos (optional), details, then the thank-you
// page that waits, live, for a doctor. A follow-up (?followUp=<consultation>) carries that address
// through the steps, and goes to the doctor of the consultation it continues first.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request } = args;
  const url = new URL(request.url);
  const t = await getTranslator(request);
  const title = pageTitle(t("request.title"));
  const step = stepOf(url);
  if (step === 3) {
    const consultation = await findOwnConsultation(context.db, url.searchParams.get("id") ?? undefined, patient.userId);
    if (!consultation) throw new Response("Not Found", { status: 404 });
    const { id, status, decline } = consultationForPage(consultation);
    const submitted = { id, status, decline };
    return data({
      title,
      step,
      draftId: null,
      photos: [],
      photoWords: null,
      details: null,
      startedAgain: false,
      submitted,
      submissionKey: null,
      intakeWords: null,
      waitingWords: null,
      followUp: null as ShownFollowUp | null,
    });
  }
  const draftParam = uuidOrNull(url.searchParams.get("draft"));
  // "Start a new consultation" from a request declined for its photos: the same words, new photos.
  const declinedId = uuidOrNull(url.searchParams.get("from"));
  if (!draftParam && declinedId) {
    const started = await startDraftFrom(context.db, patient.userId, declinedId, new Date());
    throw redirect(started ? wizardPath(1, started, { again: true }) : wizardPath(1, null));
  }
  const draft = draftParam ? await findOwnDraft(context.db, draftParam, patient.userId) : undefined;
  const photos = draft ? (await listPhotos(context.db, draft.id)).map(({ id, photoKind, bodyArea }) => ({ id, photoKind, bodyArea })) : [];
  const followUp = await wizardFollowUp(context.db, t, await detectLanguage(request), patient.userId, url, new Date());
  const page = {
    title,
    step,
    draftId: draft?.id ?? null,
    photos,
    // The guide and each photo's choices, worded here: the words travel as data, not in the page's script.
    photoWords: step === 1 ? photoStepWords(t) : null,
    // Words kept from an earlier visit to step 2 (or a declined request), shown again there.
    details: draft ? detailsFormOf(draft) : null,
    startedAgain: Boolean(draft) && url.searchParams.has("again"),
    submitted: null,
    // A fresh key for this rendering of the form: sent twice, it still makes one request.
    submissionKey: crypto.randomUUID(),
    intakeWords: step === 2 ? intakeFormWords(t) : null,
    // Shown while a request written without a connection waits in the browser for the network.
    waitingWords: step === 2 ? t("offline.requestWaiting") : null,
  };
  // A follow-up that may not be sent says why (4xx), and the wizard is not shown.
  return data({ ...page, followUp: followUp?.shown ?? null }, { status: followUp?.status ?? 200 });
}

/** A step of the wizard, with its draft when there is one (and the follow-up it carries). */
function wizardPath(
  step: 1 | 2,
  draftId: string | null,
  { again = false, followUp = null }: { again?: boolean; followUp?: string | null } = {},
) {
  const query = new URLSearchParams({ step: String(step) });
  if (draftId) query.set("draft", draftId);
  if (again) query.set("again", "1");
  if (followUp) query.set(FOLLOW_UP_PARAM, followUp);
  return `/patient/new-consultation?${query}`;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request } = args;
  const t = await getTranslator(request);
  if (uploadTooLarge(request))
    return data({ refusals: [t("request.errors.uploadTooLarge")], submit: null, draftId: null }, { status: 413 });
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const followUp = followUpIdOf(new URL(request.url));

  if (intent === "upload-photos") {
    const result = await receivePhotos(context, request, patient, formData);
    if (!result.ok) return data({ refusals: [t(result.error)], submit: null, draftId: null }, { status: result.status });
    const refusals = refusalMessages(t, result.refused);
    if (refusals.length) return data({ refusals, submit: null, draftId: result.draftId }, { status: 422 });
    return redirect(wizardPath(1, result.draftId, { followUp }));
  }
  if (intent === "remove-photo") {
    const draftId = uuidOrNull(formData.get("draftId"));
    const removed = draftId ? await removePhoto(context, patient, draftId, formData.get("photoId")?.toString() ?? "") : "no_draft";
    if (!draftId || removed === "no_draft")
      return data({ refusals: [t("request.errors.draftNotFound")], submit: null, draftId: null }, { status: 404 });
    return redirect(wizardPath(1, draftId, { followUp }));
  }
  if (intent === DESCRIBE_PHOTO_INTENT) {
    const described = await describePhoto(context, patient, formData);
    if (described.ok) return redirect(wizardPath(1, described.draftId, { followUp }));
    return data({ refusals: [t(described.error)], submit: null, draftId: null }, { status: described.status });
  }
  if (intent === "back") {
    const kept = await keepDetails(context, patient, formData);
    if (kept.ok) return redirect(wizardPath(1, kept.draftId, { followUp }));
    return data({ refusals: [] as string[], submit: { result: kept.result, formError: undefined }, draftId: null }, { status: 400 });
  }
  const outcome = await submitNewConsultation(context, request, patient, formData);
  if (!outcome.ok && "followUpRefusal" in outcome) {
    const shown = { carried: null, panel: followUpRefusedPanel(t, outcome.followUpRefusal) };
    return data(
      { refusals: [] as string[], submit: null, draftId: null, followUp: shown },
      { status: followUpRefusalHttpStatus(outcome.followUpRefusal) },
    );
  }
  if (!outcome.ok) {
    return data(
      { refusals: [] as string[], submit: { result: outcome.result, formError: outcome.formError }, draftId: null },
      { status: 400 },
    );
  }
  return redirectWithToast(
    `/patient/new-consultation?step=3&id=${outcome.consultationId}`,
    { kind: "success", title: "request.submitted" },
    context.config,
  );
}

export default function NewConsultation() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [progress, setProgress] = useState<DetailsProgress>({
    complaintFilled: Boolean(loaded.details?.chiefComplaint),
    historyFilled: Boolean(loaded.details?.knownIllnesses),
  });
  // Step 1 counts its photos as they upload; the server's count is right again after any reload.
  const [photoCount, setPhotoCount] = useState<number | null>(null);
  const draftId: string | null = loaded.draftId ?? actionData?.draftId ?? null;
  // Only the answer to a refused follow-up has the field (so `in` leaves the other answers' `unknown`).
  const followUp = actionData && "followUp" in actionData ? (actionData.followUp as ShownFollowUp) : loaded.followUp;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6">
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{t("request.title")}</h1>
        <Link to="/patient/dashboard" className="btn btn-ghost btn-sm">
          {t("request.waiting.backToDashboard")}
        </Link>
      </div>
      <StepIndicator step={loaded.step} />
      {followUp ? <WordedPanel {...followUp.panel} /> : null}
      {loaded.step === 3 && loaded.submitted ? (
        <section className="flex flex-col gap-4">
          <h2 id="thank-you-heading" className="text-xl font-bold" data-focus-on-arrival>
            {t("request.thankYou.title")}
          </h2>
          <p>{t("request.thankYou.body")}</p>
          <Suspense fallback={null}>
            <LiveRequestStatus
              consultationId={loaded.submitted.id}
              initialStatus={loaded.submitted.status}
              initialDecline={loaded.submitted.decline}
            />
          </Suspense>
        </section>
      ) : followUp && !followUp.carried ? null : (
        <div className="grid gap-6 md:grid-cols-[1fr_18rem]">
          {loaded.step === 1 && loaded.photoWords ? (
            <PhotoStep
              draftId={draftId}
              storedPhotos={loaded.photos}
              words={loaded.photoWords}
              refusals={actionData?.refusals ?? []}
              startedAgain={loaded.startedAgain}
              onPhotoCount={setPhotoCount}
              followUpOf={followUp?.carried ?? null}
            />
          ) : loaded.intakeWords ? (
            <DetailsStep
              intakeWords={loaded.intakeWords}
              draftId={draftId}
              submissionKey={loaded.submissionKey}
              details={loaded.details}
              lastResult={actionData?.submit?.result}
              formError={actionData?.submit?.formError}
              onProgress={setProgress}
              waitingWords={loaded.waitingWords ?? ""}
            />
          ) : null}
          <RequestSidebar
            photoCount={loaded.step === 1 ? (photoCount ?? loaded.photos.length) : loaded.photos.length}
            complaintFilled={progress.complaintFilled}
            historyFilled={progress.historyFilled}
          />
        </div>
      )}
    </div>
  );
}
