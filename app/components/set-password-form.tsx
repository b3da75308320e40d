import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import type { SetPasswordSchema } from "~/domain/auth-schemas";

const loadValidateSetPassword = () => import("~/components/forms/validators").then((module) => module.validateSetPassword);

/** New password twice, for a reset or an invite link; says so plainly when the link no longer works. */
export function SetPasswordForm({
  token,
  usable,
  actionData,
  submitLabel,
}: {
  token: string;
  usable: boolean;
  actionData: { result: SubmissionResult<string[]>; linkInvalid: boolean } | undefined;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof SetPasswordSchema>>(loadValidateSetPassword);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: validation.onValidate,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (!usable || actionData?.linkInvalid) {
    return (
      <FormAlert title={t("auth.links.invalidTitle")} message={t("auth.links.invalidBody")}>
        <Link to="/forgot-password" className="link font-semibold">
          {t("auth.reset.requestTitle")}
        </Link>
      </FormAlert>
    );
  }
  return (
    <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="flex flex-col gap-4">
      <input type="hidden" name="token" value={token} />
      <TextField
        meta={fields.password}
        label={t("forms.fields.newPassword")}
        type="password"
        autoComplete="new-password"
        hint={t("forms.hints.password")}
      />
      <TextField meta={fields.confirmPassword} label={t("forms.fields.confirmPassword")} type="password" autoComplete="new-password" />
      <SubmitButton busyLabel={t("forms.busy")}>{submitLabel}</SubmitButton>
    </Form>
  );
}
