// The admin console's account forms: adding a doctor or an admin, editing a doctor, and changing a
// doctor's status. One schema per form, checked by conform in the browser and again by the action
// (both through `parseForm`); messages are translation keys. Written with `zod/mini`: these ship to
// the admins' browsers.
import { z } from "zod/mini";

import { email, ethiopianPhone, personName } from "./auth-schemas";
import { MAX_LICENCE_BYTES, MAX_PHOTO_BYTES } from "./constants";
import { todayIsoDate } from "./dates";
import { requiredLine } from "./doctor-application";
import { DEFAULT_DOCTOR_SPECIALTY } from "./roles";
import { ADD_ADMIN_INTENT, ADD_DOCTOR_INTENT, DOCTOR_STATUS_INTENTS, UPDATE_DOCTOR_INTENT } from "./staff-intents";
import { cleanLine } from "./text-hygiene";

const REQUIRED = "forms.errors.required";
const TOO_LONG = "forms.errors.tooLong";

const MAX_SPECIALTY_CHARS = 60;
const MAX_LICENCE_NUMBER_CHARS = 40;
/** Years of experience a doctor may state: a whole number from 0 to 99. */
const YEARS = /^\d{1,2}$/;

/** The specialty, "Dermatologist" when left empty. */
const specialty = z.pipe(
  z.optional(z.string().check(z.overwrite(cleanLine), z.trim(), z.maxLength(MAX_SPECIALTY_CHARS, { error: TOO_LONG }))),
  z.transform((value) => value || DEFAULT_DOCTOR_SPECIALTY),
);

const experienceYears = z.pipe(
  z.string({ error: REQUIRED }).check(z.trim(), z.regex(YEARS, { error: "admin.doctors.errors.experience" })),
  z.transform(Number),
);

/** The licence file: present and at most 10 MB here; its type is judged by its bytes on the server. */
const licenceFile = z
  .file({ error: "admin.doctors.errors.licenceRequired" })
  .check(
    z.minSize(1, { error: "admin.doctors.errors.licenceRequired" }),
    z.maxSize(MAX_LICENCE_BYTES, { error: "admin.doctors.errors.licenceTooLarge" }),
  );

const person = { firstName: personName, lastName: personName, email, phone: ethiopianPhone };

export const AddDoctorSchema = z.object({
  intent: z.literal(ADD_DOCTOR_INTENT),
  ...person,
  specialty,
  licenceNumber: requiredLine(MAX_LICENCE_NUMBER_CHARS),
  experienceYears,
  // A doctor with a lapsed licence may not practise: the date must be today or later.
  licenceExpiresOn: z.iso
    .date({ error: "admin.doctors.errors.licenceExpiry" })
    .check(z.refine((date) => date >= todayIsoDate(), { error: "admin.doctors.errors.licenceExpired" })),
  licenceFile,
});

export const AddAdminSchema = z.object({ intent: z.literal(ADD_ADMIN_INTENT), ...person });

export const EditDoctorSchema = z.object({
  intent: z.literal(UPDATE_DOCTOR_INTENT),
  ...person,
  specialty,
  /** A new profile picture, if one is chosen; its type and pixels are judged by its bytes on the server. */
  picture: z.optional(z.file().check(z.maxSize(MAX_PHOTO_BYTES, { error: "admin.doctors.errors.pictureTooLarge" }))),
});

export const DoctorStatusSchema = z.object({ intent: z.enum(DOCTOR_STATUS_INTENTS) });
