import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { AuthCard } from "~/components/auth-card";
import { FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { GoogleButton } from "~/components/google-button";
import { LoginSchema } from "~/domain/auth-schemas";
import { safeRedirectPath } from "~/domain/safe-redirect";
import { parseForm } from "~/forms";
import type { TextMessage } from "~/i18n";
import { getTranslator, pageTitle } from "~/i18n.server";
import { loadAsDocument, staticPage } from "~/page-hydration";
import { waitMessage } from "~/refusal-messages";
import { afterResponse } from "~/server/after-response.server";
import { recordAudit } from "~/server/audit.server";
import { resendConfirmation } from "~/server/auth/account-links.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { attemptPasswordSignIn } from "~/server/auth/sign-in-attempt.server";
import { readFormData } from "~/server/form-body.server";

import { AFTER_SIGN_IN_DEFAULT, completeSignIn } from "./sign-in.server";

/** Why the sign-in did not happen, and the way on: a new confirmation link, or a sign-in link while attempts must wait. */
type FormError = TextMessage & { resendFor?: string; signInLinkFor?: string };

// Public. Someone already signed in goes straight on to where they were headed.
export async function loader(args: LoaderFunctionArgs) {
  const user = await getSessionUser(args);
  const redirectTo = new URL(args.request.url).searchParams.get("redirect");
  if (user) throw redirect(safeRedirectPath(redirectTo, AFTER_SIGN_IN_DEFAULT));
  const t = await getTranslator(args.request);
  // Someone sent here from the request form is told why.
  const notice = redirectTo?.startsWith("/patient/new-consultation") ? ("request.signInFirst" as const) : null;
  return { title: pageTitle(t("auth.signIn.title")), notice };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await readFormData(request), LoginSchema);
  const reply = (formError: FormError | null, status: number) =>
    data({ result: submission.reply({ hideFields: ["password"] }), formError }, { status });
  if (submission.status !== "success") return reply(null, 400);

  const { email, password, redirect: redirectTo } = submission.value;
  const attempt = await attemptPasswordSignIn(context, request, email, password);
  if (!attempt.ok && attempt.reason === "wait") return reply({ ...waitMessage(attempt.retryAfterMs), signInLinkFor: email }, 429);
  // A right password on an unconfirmed account gets the very answer a wrong one gets: otherwise signing
  // up with an address, then signing in, would tell whether it already had an account.
  if (!attempt.ok || !attempt.emailConfirmed) {
    if (attempt.ok) afterResponse(context, "confirmation-resend", () => resendConfirmation(context, request, attempt.userId, email));
    else await recordAudit(context.db, request, { action: "auth.sign_in.failure", actorId: null, details: { email } });
    return reply({ key: "auth.signIn.invalidCredentials", resendFor: email }, 401);
  }
  return completeSignIn(context, request, attempt.userId, { redirectTo, method: "password", email });
}

// Static (no hydration): the first visit to the way in downloads no JavaScript (docs/decisions/0014).
export const handle = staticPage;
export const clientLoader = loadAsDocument;

export default function Login() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirect") ?? undefined;
  // Rendered by the server only (a static page): the server checks the form.
  const [form, fields] = useForm<z.input<typeof LoginSchema>>({ lastResult: actionData?.result });
  const formError = actionData?.formError;
  const { notice } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("auth.signIn.title")} intro={t("auth.signIn.intro")}>
      {notice ? (
        <div role="status" className="alert alert-info">
          {t(notice)}
        </div>
      ) : null}
      {formError ? (
        <FormAlert title={t("auth.signIn.errorTitle")} message={t(formError.key, formError.values)}>
          {formError.resendFor ? (
            <Link to={`/auth/resend?email=${encodeURIComponent(formError.resendFor)}`} className="link font-semibold">
              {t("auth.confirm.resendLink")}
            </Link>
          ) : null}
          {formError.signInLinkFor ? (
            <Link to={`/sign-in-link?email=${encodeURIComponent(formError.signInLinkFor)}`} className="link font-semibold">
              {t("auth.signIn.linkOffer")}
            </Link>
          ) : null}
        </FormAlert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        {redirectTo ? <input type="hidden" name="redirect" value={redirectTo} /> : null}
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <TextField meta={fields.password} label={t("forms.fields.password")} type="password" autoComplete="current-password" />
        <SubmitButton busyLabel={t("forms.busy")}>{t("auth.signIn.submit")}</SubmitButton>
      </Form>
      <GoogleButton label={t("auth.google.signIn")} redirectTo={redirectTo} />
      <div className="flex flex-col gap-1 text-sm">
        {/* At least 24 px tall: a comfortable target for a thumb (WCAG 2.5.8). */}
        <Link to="/forgot-password" className="link link-primary inline-flex min-h-6 items-center self-start">
          {t("auth.signIn.forgotPassword")}
        </Link>
        <p>
          {t("auth.signIn.noAccount")}{" "}
          <Link to="/register?type=patient" className="link link-primary font-semibold">
            {t("auth.signUp.title")}
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
