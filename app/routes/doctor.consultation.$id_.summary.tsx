import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

import { SummarySheet } from "~/components/summary-sheet";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import { summaryPage } from "~/server/summary-document.server";

// Doctors: the printable summary of a consultation they completed, read-only (another's is "not found").
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const { context, request, params } = args;
  const consultation = await requireConsultationAccess(context, request, doctor, params.id ?? "");
  if (consultation.status !== "completed" || consultation.doctorId !== doctor.userId) throw new Response("Not Found", { status: 404 });
  return summaryPage(context.db, request, consultation, `/doctor/consultation/${consultation.id}`);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function DoctorConsultationSummary() {
  return <SummarySheet {...useLoaderData<typeof loader>()} />;
}
