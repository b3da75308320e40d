import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import { DESCRIBE_PHOTO_INTENT } from "~/domain/photo-description";
import { getTranslator } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { postOnly } from "~/server/methods.server";

import { describePhoto, receivePhotos, refusalMessages, uploadTooLarge } from "./patient.new-consultation.server";

export const loader = postOnly;

// The wizard's photos with JavaScript: uploads (one photo per request, with progress) and what each photo
// shows (its kind and body area). JSON in, JSON out.
export async function action(args: ActionFunctionArgs) {
  const patient = await requirePatient(args);
  const t = await getTranslator(args.request);
  if (uploadTooLarge(args.request)) return Response.json({ error: t("request.errors.uploadTooLarge") }, { status: 413 });
  let formData: FormData;
  try {
    formData = await args.request.formData();
  } catch {
    return Response.json({ error: t("request.errors.uploadUnreadable") }, { status: 400 });
  }
  if (formData.get("intent") === DESCRIBE_PHOTO_INTENT) {
    const described = await describePhoto(args.context, patient, formData);
    if (!described.ok) return Response.json({ error: t(described.error) }, { status: described.status });
    return Response.json({ draftId: described.draftId });
  }
  const result = await receivePhotos(args.context, args.request, patient, formData);
  if (!result.ok) return Response.json({ error: t(result.error) }, { status: result.status });
  const refused = refusalMessages(t, result.refused);
  return Response.json(
    { draftId: result.draftId, photoIds: result.storedIds, errors: refused },
    { status: result.storedIds.length === 0 && refused.length > 0 ? 422 : 200 },
  );
}
