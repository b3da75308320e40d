// One zod schema per account form, used by conform in the browser and again by the action on the
// server (both through `parseForm`). Messages are translation keys (see app/locales), so each side
// shows them in the reader's language. Written with `zod/mini`: these ship to the browser.
import { z } from "zod/mini";

import { isCommonPassword } from "./common-passwords";
import { MIN_PASSWORD_CHARS } from "./constants";
import { LANGUAGES } from "./languages";
import { normalizeEthiopianPhone } from "./phone";
import { cleanLine } from "./text-hygiene";

const REQUIRED = "forms.errors.required";
const TOO_LONG = "forms.errors.tooLong";

/** A field that must be filled: absent, or blank after trimming, is "required". */
const requiredText = (maxChars: number, key = REQUIRED) =>
  z.string({ error: key }).check(z.trim(), z.minLength(1, { error: key }), z.maxLength(maxChars, { error: TOO_LONG }));

/** A person's name: one clean line (see text-hygiene), present, and short enough for every screen. */
export const personName = z
  .string({ error: REQUIRED })
  .check(z.overwrite(cleanLine), z.trim(), z.minLength(1, { error: REQUIRED }), z.maxLength(60, { error: TOO_LONG }));

export const email = z.pipe(
  requiredText(254),
  z.pipe(
    z.email({ error: "forms.errors.invalidEmail" }),
    z.transform((value) => value.toLowerCase()),
  ),
);

/** A new password: long enough and not one of the passwords everybody tries first. */
const newPassword = (tooShortKey = "forms.errors.passwordTooShort") =>
  z.string({ error: REQUIRED }).check(
    z.minLength(MIN_PASSWORD_CHARS, { error: tooShortKey }),
    z.maxLength(128, { error: TOO_LONG }),
    z.refine((value) => !isCommonPassword(value), { error: "forms.errors.commonPassword" }),
  );

/** A checkbox that must be ticked: browsers send "on" for a ticked box and nothing for an unticked one. */
const ticked = z.optional(z.literal("on"));

/** A check that two password fields agree; it runs whenever the second one is there, so every error shows at once. */
const passwordsMatch = <Form extends Record<string, unknown>>(first: keyof Form & string, second: keyof Form & string, key: string) =>
  z.refine<Form>((form) => form[first] === form[second], {
    error: key,
    path: [second],
    when: (payload) => typeof (payload.value as Record<string, unknown>)[second] === "string",
  });

const consentGiven = z.refine<{ acceptTerms?: "on"; acceptPrivacy?: "on" }>(
  (form) => form.acceptTerms === "on" && form.acceptPrivacy === "on",
  {
    error: "forms.errors.consentRequired",
    path: ["acceptTerms"],
    when: () => true,
  },
);

export const RegisterSchema = z
  .object({
    firstName: personName,
    lastName: personName,
    email,
    password: newPassword(),
    confirmPassword: z.string({ error: REQUIRED }),
    acceptTerms: ticked,
    acceptPrivacy: ticked,
  })
  .check(passwordsMatch("password", "confirmPassword", "forms.errors.passwordsDontMatch"), consentGiven);

export const LoginSchema = z.object({
  email,
  password: z.string({ error: REQUIRED }).check(z.minLength(1, { error: REQUIRED })),
  redirect: z.optional(z.string()),
});

export const ConsentSchema = z.object({ acceptTerms: ticked, acceptPrivacy: ticked }).check(consentGiven);

export const EmailOnlySchema = z.object({ email });

/** Setting a password from a one-time link (reset or invite). */
export const SetPasswordSchema = z
  .object({ token: z.string().check(z.minLength(1)), password: newPassword(), confirmPassword: z.string({ error: REQUIRED }) })
  .check(passwordsMatch("password", "confirmPassword", "forms.errors.passwordsDontMatch"));

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    /** Optional here: an account that signs in only with Google has no password yet. The server decides. */
    currentPassword: z.optional(z.string()),
    newPassword: newPassword("profile.errors.passwordTooShort"),
    confirmPassword: z.string({ error: REQUIRED }),
  })
  .check(passwordsMatch("newPassword", "confirmPassword", "profile.errors.newPasswordsDontMatch"));

/** An Ethiopian phone number, stored as +251…; an empty field is no number. */
export const ethiopianPhone = z.pipe(
  z.optional(z.string().check(z.trim())),
  z.transform((value, context) => {
    if (!value) return null;
    const normalized = normalizeEthiopianPhone(value);
    if (!normalized) context.issues.push({ code: "custom", message: "forms.errors.invalidPhone", input: value });
    return normalized;
  }),
);

export const ProfileSchema = z.object({
  intent: z.literal("update-profile"),
  firstName: personName,
  lastName: personName,
  phone: ethiopianPhone,
  preferredLanguage: z.enum(LANGUAGES, { error: REQUIRED }),
});
