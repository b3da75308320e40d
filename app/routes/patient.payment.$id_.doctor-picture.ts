import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { doctors } from "~/db/schema";
import { requirePatient } from "~/server/auth/guards.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { pictureResponse } from "~/server/doctor-picture.server";

// The picture of the doctor who accepted a patient's request, for that patient only (anyone else's
// consultation, or one no doctor has taken, is "not found"). Private to the browser, never sniffed.
export async function loader(args: LoaderFunctionArgs) {
  const patient = await requirePatient(args);
  const { context, params } = args;
  const consultation = await findConsultationById(context.db, params.id);
  // A picture is not the consultation: no audited reading, but only its own patient gets it.
  if (!consultation || consultation.patientId !== patient.userId) throw new Response("Not Found", { status: 404 });
  const doctor = consultation.doctorId
    ? await context.db.query.doctors.findFirst({ where: eq(doctors.userId, consultation.doctorId), columns: { profilePictureKey: true } })
    : null;
  const object = doctor?.profilePictureKey ? await context.cloudflare.env.FILES.get(doctor.profilePictureKey) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return pictureResponse(object);
}
