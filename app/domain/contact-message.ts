// The public contact form (/feedback): one schema, read by `parseForm` on the server.
import { z } from "zod/mini";

import { emailAddress, MAX_APPLICANT_NAME_CHARS, requiredLine } from "./doctor-application";
import { cleanText } from "./text-hygiene";

const MAX_CONTACT_SUBJECT_CHARS = 150;
export const MAX_CONTACT_MESSAGE_CHARS = 4_000;

export const ContactMessageSchema = z.object({
  name: requiredLine(MAX_APPLICANT_NAME_CHARS),
  email: emailAddress,
  subject: requiredLine(MAX_CONTACT_SUBJECT_CHARS),
  message: z
    .string({ error: "forms.errors.required" })
    .check(
      z.overwrite(cleanText),
      z.trim(),
      z.minLength(1, { error: "forms.errors.required" }),
      z.maxLength(MAX_CONTACT_MESSAGE_CHARS, { error: "forms.errors.tooLong" }),
    ),
});
export type ContactMessage = z.output<typeof ContactMessageSchema>;
