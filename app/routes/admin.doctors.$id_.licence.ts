import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { requireDoctor } from "~/server/admin/doctors.server";
import { adminFileResponse } from "~/server/admin/staff-files.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdmin } from "~/server/auth/guards.server";

// A doctor's licence file, for admins only; every opening is in the audit log.
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireAdmin(args);
  const doctor = await requireDoctor(args.context.db, args.params.id);
  const object = doctor.licenceFileKey ? await args.context.cloudflare.env.FILES.get(doctor.licenceFileKey) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  await recordAudit(args.context.db, args.request, {
    action: "admin.licence_viewed",
    actorId: admin.userId,
    targetType: "user",
    targetId: doctor.id,
  });
  return adminFileResponse(object, `licence-${doctor.id.slice(0, 8)}`);
}
