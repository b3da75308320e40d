import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton, TextField } from "~/components/form-fields";
import { EmailOnlySchema } from "~/domain/auth-schemas";

export interface EmailRequestResult {
  result?: SubmissionResult<string[]>;
  sent?: boolean;
  formError?: { key: string; values?: Record<string, string | number> } | null;
}

/** "Send me a link" forms (resend confirmation, forgot password): one email field, the same answer whether or not the account exists. */
export function EmailRequestForm({ actionData, submitLabel, sentMessage, defaultEmail }: {
  actionData: EmailRequestResult | undefined;
  submitLabel: string;
  sentMessage: string;
  defaultEmail?: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { email: defaultEmail ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailOnlySchema }),
    shouldValidate: "onBlur",
  });
  if (actionData?.sent) {
    return (
      <div role="status" className="alert alert-success" data-testid="link-sent">
        {sentMessage}
      </div>
    );
  }
  return (
    <>
      {actionData?.formError ? <FormAlert message={t(actionData.formError.key as never, actionData.formError.values)} /> : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <SubmitButton busyLabel={t("forms.busy")}>{submitLabel}</SubmitButton>
      </Form>
    </>
  );
}
