import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { detectLanguage, getTranslator } from "~/i18n.server";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { patientTimeline } from "~/server/consultation-timeline.server";

// Patients: the timeline of one of their own consultations, worded in their language, which its pages
// read again when the consultation's room says something moved (anyone else's id is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status === "awaiting_assets") throw new Response("Not Found", { status: 404 });
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  return Response.json(await patientTimeline(context.db, t, language, consultation), { headers: { "Cache-Control": "no-store" } });
}
