// The patient's money forms on a consultation, a server half its page and its feedback page share
// (patient.consultation.$id.tsx, patient.feedback.$id.tsx): "my consultation is complete", which releases
// the escrow at once, and opening a dispute, which freezes it. Each answers with a toast on the page the
// patient came back to, or the form again with its errors in their words.
import { type ActionFunctionArgs, data } from "@remix-run/cloudflare";

import { OpenDisputeSchema } from "~/domain/disputes";
import { birrText, CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { detectLanguage, getTranslator } from "~/i18n.server";
import type { SessionUser } from "~/server/auth/session.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { feedbackOf } from "~/server/db/feedback.server";
import { profileName } from "~/server/db/profiles.server";
import { openDispute, openDisputeRefusal } from "~/server/money/disputes.server";
import { confirmConsultationComplete } from "~/server/money/escrow.server";
import { patientMoneyPanels } from "~/server/money/escrow-view.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { redirectWithToast } from "~/server/toast.server";

export { CONFIRM_COMPLETE_INTENT } from "~/server/money/escrow-view.server";

/** The patient's money panels for a consultation page, in their language. */
export async function patientMoneyPanelsFor(
  { context, request }: Pick<ActionFunctionArgs, "context" | "request">,
  consultation: Parameters<typeof patientMoneyPanels>[3] & { doctorId: string | null },
  disputeForm?: Parameters<typeof patientMoneyPanels>[6],
) {
  const [t, language, doctor] = await Promise.all([
    getTranslator(request),
    detectLanguage(request),
    profileName(context.db, consultation.doctorId),
  ]);
  return patientMoneyPanels(context.db, t, language, consultation, doctor?.firstName ?? "", new Date(), disputeForm);
}

/** Back where the patient was: the feedback page until they have rated an ended consultation. */
async function pageAfter(args: ActionFunctionArgs, consultation: { id: string; status: string }) {
  const rated = consultation.status !== "completed" || (await feedbackOf(args.context.db, consultation.id));
  return rated ? `/patient/consultation/${consultation.id}` : `/patient/feedback/${consultation.id}`;
}

/** The patient says the consultation is complete: its escrow goes to the doctor now. */
export async function confirmCompleteAction(args: ActionFunctionArgs, patient: SessionUser) {
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  const outcome = await confirmConsultationComplete(context.db, patient.userId, consultation.id, new Date());
  const page = await pageAfter(args, consultation);
  if (outcome.ok) {
    // Its other open pages (the dashboard, another tab) read the timeline again.
    await tellTimelineMoved(context.cloudflare.env, consultation.id);
    return redirectWithToast(page, { kind: "success", title: "escrow.confirmed" }, context.config);
  }
  const reason = outcome.reason === "lost_race" || outcome.reason === "not_due" ? "not_held" : outcome.reason;
  return redirectWithToast(page, { kind: "error", title: `escrow.refusals.${reason}` }, context.config);
}

/** The patient disputes the consultation: the form again with its errors, or a toast saying how it went. */
export async function openDisputeAction(args: ActionFunctionArgs, patient: SessionUser, formData: FormData) {
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  // A consultation that cannot be disputed is refused for that reason, whatever the form says (its errors would have no form to show on).
  const refusal = await openDisputeRefusal(context.db, patient.userId, consultation.id, new Date());
  if (refusal)
    return redirectWithToast(await pageAfter(args, consultation), { kind: "error", title: `disputes.refusals.${refusal}` }, context.config);
  const submission = parseForm(formData, OpenDisputeSchema);
  if (submission.status !== "success") {
    // The schema's messages are translation keys: worded here, as the page ships none of these texts.
    const errors = translatedFieldErrors(await getTranslator(request), submission, { amount: birrText(CONSULTATION_FEE_SANTIM) });
    const values = { reason: String(formData.get("reason") ?? ""), words: String(formData.get("words") ?? "") };
    return data({ moneyPanels: await patientMoneyPanelsFor(args, consultation, { values, errors }) }, { status: 400 });
  }
  const outcome = await openDispute(context, patient.userId, consultation.id, submission.value, new Date(), context);
  const page = await pageAfter(args, consultation);
  if (outcome.ok) {
    // Its other open pages (the dashboard, another tab) read the timeline again.
    await tellTimelineMoved(context.cloudflare.env, consultation.id);
    return redirectWithToast(page, { kind: "success", title: "disputes.toasts.opened" }, context.config);
  }
  return redirectWithToast(page, { kind: "error", title: `disputes.refusals.${outcome.reason}` }, context.config);
}
