import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod/mini";

import { FieldErrors, FormAlert, SubmitButton } from "~/components/form-basics";
import { useLazyValidation } from "~/components/forms/use-lazy-validation";
import { IntakeFields } from "~/components/request-wizard/intake-fields";
import type { RequestDetailsSchema } from "~/domain/consultation-request";
import { PRIORITIES } from "~/domain/consultation-status";
import type { IntakeFormWords } from "~/domain/intake";
import type { TextKey } from "~/i18n";

import { useHeldRequest } from "./request-queue";

const loadValidateRequestDetails = () => import("~/components/forms/validators").then((module) => module.validateRequestDetails);

export interface DetailsProgress {
  complaintFilled: boolean;
  historyFilled: boolean;
}

/** Step 2: what is going on with the skin. Leaving it (submitting) needs the chief complaint. */
export function DetailsStep({
  draftId,
  submissionKey,
  details,
  lastResult,
  formError,
  onProgress,
  intakeWords,
  waitingWords,
}: {
  draftId: string | null;
  /** The intake's words, from the server (not shipped as script). */
  intakeWords: IntakeFormWords;
  /** Said while a request written offline waits for the network (from the server, not shipped as script). */
  waitingWords: string;
  submissionKey: string | null;
  /** What was typed here before (kept in the draft by "Previous"), or null. */
  details: Partial<z.input<typeof RequestDetailsSchema>> | null;
  lastResult?: SubmissionResult<string[]>;
  formError?: TextKey;
  onProgress: (progress: DetailsProgress) => void;
}) {
  const { t } = useTranslation();
  const validation = useLazyValidation<z.input<typeof RequestDetailsSchema>>(loadValidateRequestDetails);
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { priority: "normal", ...details },
    onValidate: validation.onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useEffect(
    () =>
      onProgress({ complaintFilled: Boolean(details?.chiefComplaint?.trim()), historyFilled: Boolean(details?.knownIllnesses?.trim()) }),
    [details, onProgress],
  );
  const held = useHeldRequest();
  const formProps = getFormProps(form);
  const report = (formElement: HTMLFormElement) => {
    const data = new FormData(formElement);
    onProgress({
      complaintFilled: String(data.get("chiefComplaint") ?? "").trim() !== "",
      historyFilled: String(data.get("knownIllnesses") ?? "").trim() !== "",
    });
  };
  const textArea = (name: "chiefComplaint" | "knownIllnesses" | "additionalComments", label: string, hint?: string) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={fields[name].id} className="font-medium">
        {label}
      </label>
      <textarea
        {...getTextareaProps(fields[name], { ariaAttributes: true })}
        key={fields[name].key}
        rows={name === "chiefComplaint" ? 4 : 3}
        className={`textarea w-full ${fields[name].errors ? "textarea-error" : ""}`}
      />
      {hint ? <p className="text-sm text-base-content/70">{hint}</p> : null}
      <FieldErrors id={fields[name].errorId} errors={fields[name].errors} />
    </div>
  );
  return (
    <section className="flex flex-col gap-4" aria-labelledby="details-heading">
      <h2 id="details-heading" className="text-xl font-bold" data-focus-on-arrival>
        {t("request.details.title")}
      </h2>
      {fields.chiefComplaint.errors?.includes("request.errors.missingComplaint") ? (
        <FormAlert title={t("request.errors.missingTitle")} message={t("request.errors.missingComplaint")} />
      ) : null}
      {formError ? <FormAlert title={t("request.errors.submitTitle")} message={t(formError)} /> : null}
      {held.waiting ? (
        <p role="status" className="alert alert-info" data-testid="request-waiting">
          {waitingWords}
        </p>
      ) : null}
      <Form
        method="post"
        {...formProps}
        onSubmit={(event) => {
          formProps.onSubmit(event);
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          // Without a connection, a valid request waits here and goes by itself when the network returns.
          if (event.defaultPrevented || submitter?.value !== "submit") return;
          if (held.holdWhenOffline(new FormData(event.currentTarget, submitter))) event.preventDefault();
        }}
        onFocusCapture={validation.onFocusCapture}
        onInput={(event) => report(event.currentTarget)}
        className="flex flex-col gap-4"
      >
        {draftId ? <input type="hidden" name="draftId" value={draftId} /> : null}
        {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : null}
        {textArea("chiefComplaint", t("request.details.chiefComplaint"), t("request.details.chiefComplaintHint"))}
        <IntakeFields fields={fields} words={intakeWords} />
        {textArea("knownIllnesses", t("request.details.knownIllnesses"))}
        {textArea("additionalComments", t("request.details.additionalComments"))}
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.doctorCode.id} className="font-medium">
            {t("request.details.doctorCode")}
          </label>
          <input
            {...getInputProps(fields.doctorCode, { type: "text", ariaAttributes: true })}
            key={fields.doctorCode.key}
            className="input w-full uppercase"
            autoComplete="off"
          />
          <p className="text-sm text-base-content/70">{t("request.details.doctorCodeHint")}</p>
          <FieldErrors id={fields.doctorCode.errorId} errors={fields.doctorCode.errors} />
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="font-medium">{t("request.details.priority")}</legend>
          <div className="flex flex-wrap gap-3">
            {PRIORITIES.map((priority) => (
              <label key={priority} className="flex items-center gap-2">
                <input
                  type="radio"
                  name={fields.priority.name}
                  value={priority}
                  defaultChecked={(fields.priority.initialValue ?? "normal") === priority}
                  className="radio radio-primary radio-sm"
                />
                {t(`priority.${priority}`)}
              </label>
            ))}
          </div>
          <p role="note" className="text-sm text-warning">
            {t("request.details.emergencyReminder")}
          </p>
        </fieldset>
        <div className="flex justify-between gap-2">
          {/* A submit, so what was typed goes with it and is here again on the way back. */}
          <button type="submit" name="intent" value="back" formNoValidate className="btn btn-ghost" data-testid="wizard-previous">
            {t("request.previous")}
          </button>
          <SubmitButton name="intent" value="submit" className="btn btn-primary" busyLabel={t("forms.busy")}>
            {t("request.submit")}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
