import { getFormProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import type { ChangePasswordSchema, ProfileSchema } from "~/domain/auth-schemas";
import { labelColon } from "~/domain/label-colon";
import { LANGUAGE_NATIVE_NAMES, LANGUAGES } from "~/domain/languages";

const loadValidateProfile = () => import("~/components/forms/validators").then((module) => module.validateProfile);
const loadValidateChangePassword = () => import("~/components/forms/validators").then((module) => module.validateChangePassword);

interface ProfileData {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  preferredLanguage: string;
  hasPassword: boolean;
}
type ActionResult = { intent: string; result: SubmissionResult<string[]> } | undefined;

export function ProfilePage({ profile, actionData, children }: { profile: ProfileData; actionData: ActionResult; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8">
      <h1 className="text-2xl font-bold">{t("profile.title")}</h1>
      <ProfileForm profile={profile} lastResult={actionData?.intent === "update-profile" ? actionData.result : undefined} />
      <PasswordForm
        hasPassword={profile.hasPassword}
        lastResult={actionData?.intent === "change-password" ? actionData.result : undefined}
      />
      {children}
    </section>
  );
}

function ProfileForm({ profile, lastResult }: { profile: ProfileData; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof ProfileSchema>>(loadValidateProfile);
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone,
      preferredLanguage: profile.preferredLanguage,
    },
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
  });
  return (
    <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="card border border-base-300">
      <div className="card-body gap-4 p-5">
        <h2 className="card-title">{t("profile.personalInformation")}</h2>
        <p className="text-sm">
          {t("forms.fields.email")}
          {labelColon(t("forms.fields.email"))} <span className="font-semibold">{profile.email}</span>
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField meta={fields.firstName} label={t("forms.fields.firstName")} autoComplete="given-name" />
          <TextField meta={fields.lastName} label={t("forms.fields.lastName")} autoComplete="family-name" />
        </div>
        <TextField meta={fields.phone} label={t("forms.fields.phone")} type="tel" autoComplete="tel" hint={t("forms.hints.phone")} />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.preferredLanguage.id} className="font-medium">
            {t("forms.fields.preferredLanguage")}
          </label>
          <select {...getSelectProps(fields.preferredLanguage)} key={fields.preferredLanguage.key} className="select w-full">
            {LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {LANGUAGE_NATIVE_NAMES[language]}
              </option>
            ))}
          </select>
          <FieldErrors id={fields.preferredLanguage.errorId} errors={fields.preferredLanguage.errors} />
        </div>
        <SubmitButton name="intent" value="update-profile" className="btn btn-primary self-start" busyLabel={t("forms.busy")}>
          {t("profile.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}

function PasswordForm({ hasPassword, lastResult }: { hasPassword: boolean; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof ChangePasswordSchema>>(loadValidateChangePassword);
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="card border border-base-300">
      <div className="card-body gap-4 p-5">
        <h2 className="card-title">{t("profile.changePassword")}</h2>
        {hasPassword ? (
          <TextField
            meta={fields.currentPassword}
            label={t("forms.fields.currentPassword")}
            type="password"
            autoComplete="current-password"
          />
        ) : (
          <p className="text-sm text-base-content/80">{t("profile.noPasswordYet")}</p>
        )}
        <TextField
          meta={fields.newPassword}
          label={t("forms.fields.newPassword")}
          type="password"
          autoComplete="new-password"
          hint={t("forms.hints.password")}
        />
        <TextField meta={fields.confirmPassword} label={t("forms.fields.confirmNewPassword")} type="password" autoComplete="new-password" />
        <SubmitButton name="intent" value="change-password" className="btn btn-primary self-start" busyLabel={t("forms.busy")}>
          {t("profile.changePassword")}
        </SubmitButton>
      </div>
    </Form>
  );
}
