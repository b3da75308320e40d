import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { CheckboxField, TextField } from "~/components/form-fields";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import { useHydrated } from "~/components/use-hydrated";
import { MAX_FEEDBACK_MESSAGE_CHARS } from "~/domain/constants";
import { CONTACT_METHODS, type FeedbackSchema, RATINGS } from "~/domain/feedback";

const loadValidateFeedback = () => import("~/components/forms/validators").then((module) => module.validateFeedback);

/**
 * Rating (required), a message, and whether and how the patient may be contacted. With script, the
 * contact fields appear once the box is ticked; without it they are always there, and only count when ticked.
 */
export function FeedbackForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof FeedbackSchema>>(loadValidateFeedback);
  const [form, fields] = useForm({
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const hydrated = useHydrated();
  const [contactAllowed, setContactAllowed] = useState(fields.allowContact.initialValue === "on");
  const showContactFields = !hydrated || contactAllowed;
  const invalid = form.status === "error";
  return (
    <Form method="post" {...getFormProps(form)} onFocusCapture={validation.onFocusCapture} className="flex flex-col gap-4">
      {invalid ? <FormAlert title={t("feedback.missingTitle")} message={t("feedback.missingBody")} /> : null}
      <fieldset
        className="flex flex-col gap-2"
        aria-invalid={fields.rating.errors ? true : undefined}
        aria-describedby={fields.rating.errors ? fields.rating.errorId : undefined}
      >
        <legend className="mb-1 font-medium">{t("feedback.rating")}</legend>
        <div className="rating rating-lg gap-1">
          {RATINGS.map((stars) => {
            const { key, ...radio } = getInputProps(fields.rating, { type: "radio", value: String(stars) });
            return (
              <input
                key={`${key}-${stars}`}
                {...radio}
                id={`rating-${stars}`}
                className="mask mask-star-2 bg-orange-500"
                aria-label={t("feedback.stars", { count: stars })}
              />
            );
          })}
        </div>
        <FieldErrors id={fields.rating.errorId} errors={fields.rating.errors} />
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={fields.message.id} className="font-medium">
          {t("feedback.message")}
        </label>
        <textarea
          {...getTextareaProps(fields.message, { ariaAttributes: true })}
          key={fields.message.key}
          rows={4}
          maxLength={MAX_FEEDBACK_MESSAGE_CHARS}
          className="textarea w-full"
        />
        <FieldErrors id={fields.message.errorId} errors={fields.message.errors} />
      </div>
      <CheckboxField meta={fields.allowContact} onCheckedChange={setContactAllowed}>
        {t("feedback.allowContact")}
      </CheckboxField>
      {showContactFields ? (
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.contactMethod.id} className="font-medium">
              {t("feedback.contactMethod")}
            </label>
            <select
              {...getSelectProps(fields.contactMethod, { ariaAttributes: true })}
              key={fields.contactMethod.key}
              className="select w-full"
            >
              <option value="">{t("feedback.chooseMethod")}</option>
              {CONTACT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {t(`feedback.methods.${method}`)}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.contactMethod.errorId} errors={fields.contactMethod.errors} />
          </div>
          <TextField meta={fields.contactValue} label={t("feedback.contactValue")} autoComplete="off" />
        </div>
      ) : null}
      <SubmitButton busyLabel={t("forms.busy")}>{t("feedback.submit")}</SubmitButton>
    </Form>
  );
}
