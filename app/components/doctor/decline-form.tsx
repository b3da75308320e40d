import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, SubmitButton } from "~/components/form-fields";
import { DECISION_INTENTS, type DeclineSchema } from "~/domain/consultation-decisions";
import { DECLINE_REASONS } from "~/domain/consultation-status";

/**
 * Declining with a reason the patient is told: a disclosure (no script needed) holding the reasons and,
 * for "other", the doctor's words. The server checks the form; its errors show here, the choice kept.
 */
export function DeclineForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof DeclineSchema>>({ lastResult });
  const chosen = fields.reason.initialValue;
  return (
    <details className="rounded-box border border-base-300 p-3" open={Boolean(lastResult?.error)} data-testid="decline-form">
      <summary className="cursor-pointer font-medium">{t("consultation.declineForm.open")}</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="intent" value={DECISION_INTENTS.decline} />
        <fieldset className="flex flex-col gap-2" aria-describedby={fields.reason.errors ? fields.reason.errorId : undefined}>
          <legend className="mb-1 font-medium">{t("consultation.declineForm.legend")}</legend>
          {DECLINE_REASONS.map((reason) => (
            <label key={reason} className="flex items-center gap-2">
              <input
                type="radio"
                name={fields.reason.name}
                value={reason}
                defaultChecked={chosen === reason}
                className="radio radio-primary radio-sm"
              />
              {t(`consultation.declineForm.reasons.${reason}`)}
            </label>
          ))}
          <FieldErrors id={fields.reason.errorId} errors={fields.reason.errors} />
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.note.id} className="font-medium">
            {t("consultation.declineForm.note")}
          </label>
          <textarea
            {...getTextareaProps(fields.note, { ariaAttributes: true })}
            key={fields.note.key}
            rows={3}
            className="textarea w-full"
          />
          <p className="text-sm text-base-content/70">{t("consultation.declineForm.noteHint")}</p>
          <FieldErrors id={fields.note.errorId} errors={fields.note.errors} />
        </div>
        <SubmitButton className="btn btn-outline btn-error self-start" busyLabel={t("forms.busy")}>
          {t("consultation.declineForm.submit")}
        </SubmitButton>
      </Form>
    </details>
  );
}
