import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { patientTimelineFor } from "~/server/consultation-timeline.server";

// Patients: the timeline of one of their own consultations, worded in their language, which its pages
// read again when the consultation's room says something moved (anyone else's id is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status === "awaiting_assets") throw new Response("Not Found", { status: 404 });
  return Response.json(await patientTimelineFor(args, consultation), { headers: { "Cache-Control": "no-store" } });
}
