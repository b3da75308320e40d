import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, useActionData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { AuthCard } from "~/components/auth-card";
import { ConsentCheckboxes } from "~/components/consent-checkboxes";
import { FormAlert, SubmitButton, useErrorText } from "~/components/form-basics";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import { useHydrated } from "~/components/use-hydrated";
import { ConsentSchema } from "~/domain/auth-schemas";
import { safeRedirectPath } from "~/domain/safe-redirect";
import { parseForm } from "~/forms";
import { getTranslator, pageTitle } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { recordConsent } from "~/server/auth/accounts.server";
import { requireRole } from "~/server/auth/guards.server";
import { readFormData } from "~/server/form-body.server";

const loadValidateConsent = () => import("~/components/forms/validators").then((module) => module.validateConsent);

const AFTER_CONSENT = "/patient/dashboard";

// Patients only: the terms and privacy consents every patient gives before using Qoda.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireRole(args, "patient");
  const redirectTo = new URL(args.request.url).searchParams.get("redirect");
  if (user.hasConsented) throw redirect(safeRedirectPath(redirectTo, AFTER_CONSENT));
  const t = await getTranslator(args.request);
  return { title: pageTitle(t("auth.consent.title")) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action(args: ActionFunctionArgs) {
  const user = await requireRole(args, "patient");
  const submission = parseForm(await readFormData(args.request), ConsentSchema);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await recordConsent(args.context.db, user.userId, new Date());
  await recordAudit(args.context.db, args.request, {
    action: "auth.consent_given",
    actorId: user.userId,
    targetType: "user",
    targetId: user.userId,
  });
  return redirect(safeRedirectPath(new URL(args.request.url).searchParams.get("redirect"), AFTER_CONSENT));
}

/** Whether the box is ticked in the page as the browser shows it (never, while rendered on the server). */
const tickedInPage = (id: string) =>
  typeof document !== "undefined" && ((document.getElementById(id) as HTMLInputElement | null)?.checked ?? false);

export default function Consent() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const validation = useLazyValidation<z.input<typeof ConsentSchema>>(loadValidateConsent);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: validation.onValidate,
  });
  // Each box starts as the page has it: one ticked before the script took over (a slow phone) counts,
  // instead of leaving the button disabled for a tick that already happened.
  const [acceptTerms, setAcceptTerms] = useState(() => tickedInPage(fields.acceptTerms.id));
  const [acceptPrivacy, setAcceptPrivacy] = useState(() => tickedInPage(fields.acceptPrivacy.id));
  const consentMissing = useHydrated() && !(acceptTerms && acceptPrivacy);
  // Only the server's verdict (see register): with JavaScript the button waits for both boxes.
  const errors = actionData?.result.error?.acceptTerms;
  const errorText = useErrorText();
  return (
    <AuthCard title={t("auth.consent.title")} intro={t("auth.consent.intro")}>
      {errors?.length ? <FormAlert title={t("auth.consent.requiredTitle")} message={errorText(errors[0]!)} /> : null}
      <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="flex flex-col gap-4">
        <ConsentCheckboxes
          terms={fields.acceptTerms}
          privacy={fields.acceptPrivacy}
          onTermsChange={setAcceptTerms}
          onPrivacyChange={setAcceptPrivacy}
        />
        <SubmitButton disabled={consentMissing} needsConsent busyLabel={t("forms.busy")}>
          {t("auth.consent.continue")}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
