import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton, TextField } from "~/components/form-fields";
import { SetPasswordSchema } from "~/domain/auth-schemas";

/** New password twice, for a reset or an invite link; says so plainly when the link no longer works. */
export function SetPasswordForm({ token, usable, actionData, submitLabel }: {
  token: string;
  usable: boolean;
  actionData: { result: SubmissionResult<string[]>; linkInvalid: boolean } | undefined;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (!usable || actionData?.linkInvalid) {
    return (
      <FormAlert title={t("auth.links.invalidTitle")} message={t("auth.links.invalidBody")}>
        <Link to="/forgot-password" className="link font-semibold">{t("auth.reset.requestTitle")}</Link>
      </FormAlert>
    );
  }
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="token" value={token} />
      <TextField meta={fields.password} label={t("forms.fields.newPassword")} type="password" autoComplete="new-password" hint={t("forms.hints.password")} />
      <TextField meta={fields.confirmPassword} label={t("forms.fields.confirmPassword")} type="password" autoComplete="new-password" />
      <SubmitButton busyLabel={t("forms.busy")}>{submitLabel}</SubmitButton>
    </Form>
  );
}
