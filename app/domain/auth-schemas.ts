// One zod schema per account form, used by conform in the browser and again by the action on the
// server. Messages are translation keys (see app/locales), so each side shows them in the reader's
// language.
import { z } from "zod";
import { isCommonPassword } from "./common-passwords";
import { MIN_PASSWORD_CHARS } from "./constants";
import { LANGUAGES } from "./languages";
import { normalizeEthiopianPhone } from "./phone";
import { cleanLine } from "./text-hygiene";

const required = (key = "forms.errors.required") => z.string({ error: key }).trim().min(1, { error: key });

/** A person's name: one clean line (see text-hygiene), present, and short enough for every screen. */
export const personName = z
  .string({ error: "forms.errors.required" })
  .overwrite(cleanLine)
  .trim()
  .min(1, { error: "forms.errors.required" })
  .max(60, { error: "forms.errors.tooLong" });
const name = personName;

export const email = required()
  .max(254, { error: "forms.errors.tooLong" })
  .pipe(z.email({ error: "forms.errors.invalidEmail" }))
  .transform((value) => value.toLowerCase());

/** A new password: long enough and not one of the passwords everybody tries first. */
const newPassword = z
  .string({ error: "forms.errors.required" })
  .min(1, { error: "forms.errors.required" })
  .min(MIN_PASSWORD_CHARS, { error: "forms.errors.passwordTooShort" })
  .max(128, { error: "forms.errors.tooLong" })
  .refine((value) => !isCommonPassword(value), { error: "forms.errors.commonPassword" });

/** A checkbox that must be ticked; conform turns a ticked box into `true` and an unticked one into nothing. */
const ticked = z.boolean().optional();

export const RegisterSchema = z
  .object({
    firstName: name,
    lastName: name,
    email,
    password: newPassword,
    confirmPassword: z.string({ error: "forms.errors.required" }),
    acceptTerms: ticked,
    acceptPrivacy: ticked,
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: "forms.errors.passwordsDontMatch",
    path: ["confirmPassword"],
    when: (payload) => typeof (payload.value as { confirmPassword?: unknown }).confirmPassword === "string",
  })
  .refine((form) => form.acceptTerms === true && form.acceptPrivacy === true, {
    error: "forms.errors.consentRequired",
    path: ["acceptTerms"],
    when: () => true,
  });

export const LoginSchema = z.object({
  email,
  password: z.string({ error: "forms.errors.required" }).min(1, { error: "forms.errors.required" }),
  redirect: z.string().optional(),
});

export const ConsentSchema = z
  .object({ acceptTerms: ticked, acceptPrivacy: ticked })
  .refine((form) => form.acceptTerms === true && form.acceptPrivacy === true, {
    error: "forms.errors.consentRequired",
    path: ["acceptTerms"],
  });

export const EmailOnlySchema = z.object({ email });

/** Setting a password from a one-time link (reset or invite). */
export const SetPasswordSchema = z
  .object({ token: z.string().min(1), password: newPassword, confirmPassword: z.string({ error: "forms.errors.required" }) })
  .refine((form) => form.password === form.confirmPassword, {
    error: "forms.errors.passwordsDontMatch",
    path: ["confirmPassword"],
    when: (payload) => typeof (payload.value as { confirmPassword?: unknown }).confirmPassword === "string",
  });

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    /** Optional here: an account that signs in only with Google has no password yet. The server decides. */
    currentPassword: z.string().optional(),
    newPassword: z
      .string({ error: "forms.errors.required" })
      .min(1, { error: "forms.errors.required" })
      .min(MIN_PASSWORD_CHARS, { error: "profile.errors.passwordTooShort" })
      .max(128, { error: "forms.errors.tooLong" })
      .refine((value) => !isCommonPassword(value), { error: "forms.errors.commonPassword" }),
    confirmPassword: z.string({ error: "forms.errors.required" }).min(1, { error: "forms.errors.required" }),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    error: "profile.errors.newPasswordsDontMatch",
    path: ["confirmPassword"],
    when: (payload) => typeof (payload.value as { confirmPassword?: unknown }).confirmPassword === "string",
  });

export const ProfileSchema = z.object({
  intent: z.literal("update-profile"),
  firstName: name,
  lastName: name,
  phone: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return null;
      const normalized = normalizeEthiopianPhone(value);
      if (!normalized) context.addIssue({ code: "custom", message: "forms.errors.invalidPhone" });
      return normalized;
    }),
  preferredLanguage: z.enum(LANGUAGES, { error: "forms.errors.required" }),
});
