// A patient's feedback on a completed consultation: a rating of 1 to 5, a message, and, if they agree
// to be contacted, how and where. One schema for the form in the browser and the action on the server.
import { z } from "zod/mini";

import { MAX_CONTACT_VALUE_CHARS, MAX_FEEDBACK_MESSAGE_CHARS, RATING_MAX, RATING_MIN } from "./constants.ts";
import { normalizeEthiopianPhone } from "./phone.ts";
import { cleanLine, cleanText } from "./text-hygiene.ts";

export const CONTACT_METHODS = ["telegram", "phone", "email"] as const;
type ContactMethod = (typeof CONTACT_METHODS)[number];

export const RATINGS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A Telegram username: 5-32 letters, digits or underscores, with or without its @. */
const TELEGRAM_PATTERN = /^@?[A-Za-z0-9_]{5,32}$/;

/** Whether `value` can be used to reach someone by `method`. */
function isContactValue(method: ContactMethod, value: string): boolean {
  if (method === "email") return EMAIL_PATTERN.test(value);
  if (method === "phone") return normalizeEthiopianPhone(value) !== null;
  return TELEGRAM_PATTERN.test(value);
}

export const FeedbackSchema = z
  .object({
    rating: z.pipe(z.enum(RATINGS.map(String) as [string, ...string[]], { error: "feedback.errors.ratingRequired" }), z.transform(Number)),
    message: z.pipe(
      z.optional(
        z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_FEEDBACK_MESSAGE_CHARS, { error: "forms.errors.tooLong" })),
      ),
      z.transform((message) => message ?? ""),
    ),
    allowContact: z.pipe(
      z.optional(z.literal("on")),
      z.transform((ticked) => ticked === "on"),
    ),
    contactMethod: z.optional(z.enum(CONTACT_METHODS, { error: "feedback.errors.methodRequired" })),
    contactValue: z.optional(
      z.string().check(z.overwrite(cleanLine), z.trim(), z.maxLength(MAX_CONTACT_VALUE_CHARS, { error: "forms.errors.tooLong" })),
    ),
  })
  .check(
    z.refine((form) => !form.allowContact || form.contactMethod !== undefined, {
      error: "feedback.errors.methodRequired",
      path: ["contactMethod"],
    }),
    z.refine((form) => !form.allowContact || Boolean(form.contactValue), {
      error: "feedback.errors.valueRequired",
      path: ["contactValue"],
    }),
    z.refine(
      (form) => !form.allowContact || !form.contactMethod || !form.contactValue || isContactValue(form.contactMethod, form.contactValue),
      {
        error: "feedback.errors.valueInvalid",
        path: ["contactValue"],
      },
    ),
  );
export type Feedback = z.output<typeof FeedbackSchema>;
