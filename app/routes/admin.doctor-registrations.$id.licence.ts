import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { type LicenceType, safeDownloadName } from "~/domain/doctor-application";
import { isUuid } from "~/domain/ids";
import { recordAudit } from "~/server/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";
import { findRegistration } from "~/server/db/registrations.server";

// Admins only: an applicant's licence file, as the type its bytes proved; never cached, never sniffed,
// and every opening is in the audit log. Only PDF, JPEG or PNG were ever stored (their bytes decided).
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireAdmin(args);
  const { context, request, params } = args;
  const notFound = () => new Response("Not Found", { status: 404 });
  if (!isUuid(params.id)) throw notFound();
  const registration = await findRegistration(context.db, params.id);
  if (!registration) throw notFound();
  const object = await context.cloudflare.env.FILES.get(registration.licenceFileKey);
  if (!object) throw notFound();
  await recordAudit(context.db, request, {
    action: "admin.licence_viewed",
    actorId: admin.userId,
    targetType: "doctor_registration",
    targetId: registration.id,
  });
  const name = safeDownloadName(registration.licenceFileName, registration.licenceContentType as LicenceType);
  return new Response(object.body, {
    headers: {
      "Content-Type": registration.licenceContentType,
      "Content-Length": String(object.size),
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
