import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

import { SummarySheet } from "~/components/summary-sheet";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { requirePatient } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { summaryPage } from "~/server/summary-document.server";

// Patients: the printable summary of one of their completed consultations (anyone else's, or one not
// yet ended, is "not found"), in their language and, on request, the other one below. No script.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, patient, params.id ?? "");
  if (consultation.status !== "completed") throw new Response("Not Found", { status: 404 });
  return summaryPage(context.db, request, consultation, `/patient/consultation/${consultation.id}`);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function PatientConsultationSummary() {
  return <SummarySheet {...useLoaderData<typeof loader>()} />;
}
