import { getFormProps, useForm } from "@conform-to/react";
import { readFormData } from "~/server/form-body.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { ConsentCheckboxes } from "~/components/consent-checkboxes";
import { FieldErrors, FormAlert, SubmitButton, TextField } from "~/components/form-fields";
import { GoogleButton } from "~/components/google-button";
import { useHydrated } from "~/components/use-hydrated";
import { RegisterSchema } from "~/domain/auth-schemas";
import { minutesToWait } from "~/domain/rate-limits";
import { homePathForRole } from "~/domain/roles";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { createPatient } from "~/server/auth/accounts.server";
import { sendAccountLink } from "~/server/auth/account-links.server";
import { signUpLimits } from "~/server/auth/client-limits.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { recordAudit } from "~/server/audit.server";
import { checkRateLimits, recordRateLimitHit } from "~/server/rate-limit.server";
import { redirectWithToast } from "~/server/toast.server";

// Public: sign-up is for patients only (doctors apply at /register/doctor).
export async function loader(args: LoaderFunctionArgs) {
  const user = await getSessionUser(args);
  if (user) throw redirect(homePathForRole(user.role));
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("auth.signUp.title")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  const now = new Date();
  const submission = parseWithZod(await readFormData(request), { schema: RegisterSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), formError: null }, { status: 400 });
  }
  const limits = signUpLimits(request);
  const limit = await checkRateLimits(context.db, limits, now);
  if (!limit.allowed) {
    const formError = { key: "forms.errors.rateLimited", values: { minutes: minutesToWait(limit.retryAfterMs) } };
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), formError }, { status: 429 });
  }
  for (const [key] of limits) await recordRateLimitHit(context.db, key, now);

  const { firstName, lastName, email, password } = submission.value;
  const language = await detectLanguage(request);
  const userId = await createPatient(context.db, { firstName, lastName, email, password, consented: true, emailConfirmed: false, preferredLanguage: language }, now);
  if (!userId) {
    const formError = { key: "auth.signUp.emailTaken", values: {} };
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), formError }, { status: 409 });
  }
  await sendAccountLink("confirm", context, request, { userId, email, firstName, language }, now);
  await recordAudit(context.db, request, { action: "auth.sign_up", actorId: userId, targetType: "user", targetId: userId });
  return redirectWithToast("/", { kind: "success", title: "auth.signUp.successTitle", description: "auth.signUp.successBody" }, context.config);
}

export default function Register() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // With JavaScript, the buttons wait for both boxes; without it, the server says the same thing.
  const [acceptTerms, setAcceptTerms] = useState(fields.acceptTerms.initialValue === "on");
  const [acceptPrivacy, setAcceptPrivacy] = useState(fields.acceptPrivacy.initialValue === "on");
  const consentMissing = useHydrated() && !(acceptTerms && acceptPrivacy);
  // Only the server's verdict: with JavaScript the buttons wait for the boxes, and a message appearing
  // on blur would shift the boxes under the reader's finger.
  const consentError = actionData?.result.error?.acceptTerms?.[0];

  return (
    <AuthCard title={t("auth.signUp.title")} intro={t("auth.signUp.intro")}>
      {actionData?.formError ? (
        <FormAlert title={t("auth.signUp.errorTitle")} message={t(actionData.formError.key as never, actionData.formError.values)}>
          {actionData.formError.key === "auth.signUp.emailTaken" ? (
            <p className="flex gap-3">
              <Link to="/login" className="link font-semibold">{t("shell.signIn")}</Link>
              <Link to="/forgot-password" className="link font-semibold">{t("auth.signIn.forgotPassword")}</Link>
            </p>
          ) : null}
        </FormAlert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField meta={fields.firstName} label={t("forms.fields.firstName")} autoComplete="given-name" />
          <TextField meta={fields.lastName} label={t("forms.fields.lastName")} autoComplete="family-name" />
        </div>
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <TextField meta={fields.password} label={t("forms.fields.password")} type="password" autoComplete="new-password" hint={t("forms.hints.password")} />
        <TextField meta={fields.confirmPassword} label={t("forms.fields.confirmPassword")} type="password" autoComplete="new-password" />
        {consentError ? <FieldErrors id="consent-error" errors={[consentError]} /> : null}
        <ConsentCheckboxes terms={fields.acceptTerms} privacy={fields.acceptPrivacy} onTermsChange={setAcceptTerms} onPrivacyChange={setAcceptPrivacy} />
        <SubmitButton disabled={consentMissing} busyLabel={t("forms.busy")}>
          {t("auth.signUp.submit")}
        </SubmitButton>
      </Form>
      <GoogleButton disabled={consentMissing} label={t("auth.google.signUp")} />
      <p className="text-sm">
        {t("auth.signUp.haveAccount")} <Link to="/login" className="link link-primary font-semibold">{t("shell.signIn")}</Link>
      </p>
    </AuthCard>
  );
}
