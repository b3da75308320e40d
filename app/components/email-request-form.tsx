import type { SubmissionResult } from "@conform-to/react";
import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FormAlert, SubmitButton } from "~/components/form-basics";
import { TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import type { EmailOnlySchema } from "~/domain/auth-schemas";
import type { TextMessage } from "~/i18n";

const loadValidateEmailOnly = () => import("~/components/forms/validators").then((module) => module.validateEmailOnly);

export interface EmailRequestResult {
  result?: SubmissionResult<string[]>;
  sent?: boolean;
  formError?: TextMessage | null;
}

/** "Send me a link" forms (resend confirmation, forgot password): one email field, the same answer whether or not the account exists. */
export function EmailRequestForm({
  actionData,
  submitLabel,
  sentMessage,
  defaultEmail,
}: {
  actionData: EmailRequestResult | undefined;
  submitLabel: string;
  sentMessage: string;
  defaultEmail?: string;
}) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof EmailOnlySchema>>(loadValidateEmailOnly);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { email: defaultEmail ?? "" },
    onValidate: validation.onValidate,
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
      {actionData?.formError ? <FormAlert message={t(actionData.formError.key, actionData.formError.values)} /> : null}
      <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="flex flex-col gap-4">
        <TextField meta={fields.email} label={t("forms.fields.email")} type="email" autoComplete="email" />
        <SubmitButton busyLabel={t("forms.busy")}>{submitLabel}</SubmitButton>
      </Form>
    </>
  );
}
