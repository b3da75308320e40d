// The doctor's consultation page, its server half: the doctor's one answer to a patient's dispute.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import { AnswerDisputeSchema } from "~/domain/disputes";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { detectLanguage, getTranslator } from "~/i18n.server";
import type { SessionUser } from "~/server/auth/session.server";
import { answerDispute, answerDisputeRefusal } from "~/server/money/disputes.server";
import { doctorMoneyPanel } from "~/server/money/escrow-view.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { redirectWithToast } from "~/server/toast.server";

/**
 * The dispute panel again with the form's error in the doctor's words; otherwise it throws the redirect
 * with a toast saying how it went (so the page's action keeps one answer shape).
 */
export async function answerDisputeAction(args: ActionFunctionArgs, doctor: SessionUser, formData: FormData) {
  const { context, request, params } = args;
  const consultationId = params.id ?? "";
  const page = `/doctor/consultation/${consultationId}`;
  // A dispute that cannot be answered is refused for that reason, whatever the form says (its errors would have no form to show on).
  const refusal = await answerDisputeRefusal(context.db, doctor.userId, consultationId);
  if (refusal) throw await redirectWithToast(page, { kind: "error", title: `disputes.refusals.${refusal}` }, context.config);
  const submission = parseForm(formData, AnswerDisputeSchema);
  if (submission.status !== "success") {
    const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
    const errors = { answer: translatedFieldErrors(t, submission).answer ?? t("forms.errors.invalid") };
    const values = { answer: String(formData.get("answer") ?? "") };
    return doctorMoneyPanel(context.db, t, language, consultationId, doctor.userId, { values, errors });
  }
  const outcome = await answerDispute(context, doctor.userId, consultationId, submission.value.answer, new Date(), context);
  if (outcome.ok) {
    // No step moves, but the patient's open page shows the answer: it reads itself again on this news.
    await tellTimelineMoved(context.cloudflare.env, consultationId);
    throw await redirectWithToast(page, { kind: "success", title: "disputes.toasts.answered" }, context.config);
  }
  throw await redirectWithToast(page, { kind: "error", title: `disputes.refusals.${outcome.reason}` }, context.config);
}
