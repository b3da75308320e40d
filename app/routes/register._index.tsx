import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { AuthCard } from "~/components/auth-card";
import { ConsentCheckboxes } from "~/components/consent-checkboxes";
import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { GoogleButton } from "~/components/google-button";
import { RegisterSchema } from "~/domain/auth-schemas";
import { homePathForRole } from "~/domain/roles";
import { parseForm } from "~/forms";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { waitMessage } from "~/refusal-messages";
import { afterResponse } from "~/server/after-response.server";
import { signUpLimits } from "~/server/auth/client-limits.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { signUpOrTellOwner } from "~/server/auth/sign-up.server";
import { readFormData } from "~/server/form-body.server";
import { takeAttempt } from "~/server/rate-limit.server";
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
  const submission = parseForm(await readFormData(request), RegisterSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), formError: null }, { status: 400 });
  }
  const limit = await takeAttempt(context.db, signUpLimits(request), now);
  if (!limit.allowed) {
    return data(
      { result: submission.reply({ hideFields: ["password", "confirmPassword"] }), formError: waitMessage(limit.retryAfterMs) },
      { status: 429 },
    );
  }

  const { firstName, lastName, email, password } = submission.value;
  const language = await detectLanguage(request);
  // The same answer for a new and a taken address; the work, and its timing, come after it.
  afterResponse(context, "sign-up", () => signUpOrTellOwner(context, request, { firstName, lastName, email, password }, language));
  return redirectWithToast(
    "/",
    { kind: "success", title: "auth.signUp.successTitle", description: "auth.signUp.successBody" },
    context.config,
  );
}

// Static (no hydration): the first visit to the way in downloads no JavaScript (docs/decisions/0014).
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function Register() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  // Rendered by the server only (a static page): the server checks the form; the page's small script
  // keeps the buttons waiting for both consent boxes.
  const [form, fields] = useForm<z.input<typeof RegisterSchema>>({ lastResult: actionData?.result });
  // Only the server's verdict: with JavaScript the buttons wait for the boxes, and a message appearing
  // on blur would shift the boxes under the reader's finger.
  const consentError = actionData?.result.error?.acceptTerms?.[0];

  return (
    <AuthCard title={t("auth.signUp.title")} intro={t("auth.signUp.intro")}>
      {actionData?.formError ? (
        <FormAlert title={t("auth.signUp.errorTitle")} message={t(actionData.formError.key, actionData.formError.values)} />
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField meta={fields.firstName} label={t("forms.fields.firstName")} autoComplete="given-name" />
          <TextField meta={fields.lastName} label={t("forms.fields.lastName")} autoComplete="family-name" />
        </div>
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <TextField
          meta={fields.password}
          label={t("forms.fields.password")}
          type="password"
          autoComplete="new-password"
          hint={t("forms.hints.password")}
        />
        <TextField meta={fields.confirmPassword} label={t("forms.fields.confirmPassword")} type="password" autoComplete="new-password" />
        {consentError ? <FieldErrors id="consent-error" errors={[consentError]} /> : null}
        <ConsentCheckboxes terms={fields.acceptTerms} privacy={fields.acceptPrivacy} />
        <SubmitButton needsConsent busyLabel={t("forms.busy")}>
          {t("auth.signUp.submit")}
        </SubmitButton>
      </Form>
      <GoogleButton needsConsent label={t("auth.google.signUp")} />
      <p className="text-sm">
        {t("auth.signUp.haveAccount")}{" "}
        <Link to="/login" className="link link-primary font-semibold">
          {t("shell.signIn")}
        </Link>
      </p>
    </AuthCard>
  );
}
