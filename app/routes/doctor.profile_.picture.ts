import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { doctors } from "~/db/schema";
import { requireActiveDoctor } from "~/server/auth/guards.server";
import { pictureResponse } from "~/server/doctor-picture.server";

// The doctor's own picture, for the preview of their card: theirs alone (the session says whose).
export async function loader(args: LoaderFunctionArgs) {
  const doctor = await requireActiveDoctor(args);
  const row = await args.context.db.query.doctors.findFirst({
    where: eq(doctors.userId, doctor.userId),
    columns: { profilePictureKey: true },
  });
  const object = row?.profilePictureKey ? await args.context.cloudflare.env.FILES.get(row.profilePictureKey) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return pictureResponse(object);
}
