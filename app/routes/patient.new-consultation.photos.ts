import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import { getTranslator } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { receivePhotos, refusalMessages } from "~/server/new-consultation.server";

// The wizard's photo uploads with JavaScript (one photo per request, with progress): JSON in, JSON out.
export async function action(args: ActionFunctionArgs) {
  const patient = await requirePatient(args);
  const t = await getTranslator(args.request);
  const result = await receivePhotos(args.context, args.request, patient);
  if (!result.ok) return Response.json({ error: t(`request.errors.${result.error}`) }, { status: result.status });
  const refused = refusalMessages(t, result.refused);
  return Response.json(
    { draftId: result.draftId, photoIds: result.storedIds, errors: refused },
    { status: result.storedIds.length === 0 && refused.length > 0 ? 422 : 200 },
  );
}
