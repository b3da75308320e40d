import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { todayIsoDate } from "~/domain/dates";
import { detectLanguage, getTranslator } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { requirePatient } from "~/server/auth/guards.server";
import { patientDataZip } from "~/server/privacy/export.server";

// Patients: a ZIP of everything Qoda holds about them (their own data only), streamed as it is read.
// Every download is audited.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, request } = args;
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  await recordAudit(context.db, request, {
    action: "privacy.data_exported",
    actorId: patient.userId,
    targetType: "user",
    targetId: patient.userId,
  });
  return new Response(patientDataZip(context.cloudflare.env, context.db, t, language, patient.userId), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="qoda-data-${todayIsoDate()}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}
