import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { requireDoctor } from "~/server/admin/doctors.server";
import { adminFileResponse } from "~/server/admin/staff-files.server";
import { requireAdmin } from "~/server/auth/guards.server";

// A doctor's profile picture, for admins only; never cached, never sniffed.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const doctor = await requireDoctor(args.context.db, args.params.id);
  const object = doctor.profilePictureKey ? await args.context.cloudflare.env.FILES.get(doctor.profilePictureKey) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return adminFileResponse(object, `doctor-${doctor.id.slice(0, 8)}`);
}
