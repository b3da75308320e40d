import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { FieldErrors, SubmitButton } from "~/components/form-basics";
import { DECISION_INTENTS } from "~/domain/consultation-decisions";
import { DECLINE_REASONS } from "~/domain/consultation-status";

/**
 * Declining with a reason the patient is told: a disclosure (no script needed) holding the reasons and,
 * for "other", the doctor's words. Only the server checks it (no form library ships for it); its errors
 * show here, with what was chosen and typed kept.
 */
export function DeclineForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const chosen = lastResult?.initialValue?.reason;
  const typed = lastResult?.initialValue?.note;
  const errors = lastResult?.error ?? {};
  return (
    <details className="rounded-box border border-base-300 p-3" open={Boolean(lastResult?.error)} data-testid="decline-form">
      <summary className="cursor-pointer font-medium">{t("consultation.declineForm.open")}</summary>
      {/* Keyed by the answer, so a new answer's choice and words replace what the fields show. */}
      <Form method="post" className="mt-3 flex flex-col gap-3" key={JSON.stringify(lastResult?.initialValue ?? null)}>
        <input type="hidden" name="intent" value={DECISION_INTENTS.decline} />
        <fieldset
          className="flex flex-col gap-2"
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? "decline-reason-error" : undefined}
        >
          <legend className="mb-1 font-medium">{t("consultation.declineForm.legend")}</legend>
          {DECLINE_REASONS.map((reason) => (
            <label key={reason} className="flex items-center gap-2">
              <input
                type="radio"
                name="reason"
                value={reason}
                defaultChecked={chosen === reason}
                className="radio radio-primary radio-sm"
              />
              {t(`consultation.declineForm.reasons.${reason}`)}
            </label>
          ))}
          <FieldErrors id="decline-reason-error" errors={errors.reason ?? undefined} />
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="decline-note" className="font-medium">
            {t("consultation.declineForm.note")}
          </label>
          <textarea
            id="decline-note"
            name="note"
            rows={3}
            defaultValue={typeof typed === "string" ? typed : ""}
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={errors.note ? "decline-note-hint decline-note-error" : "decline-note-hint"}
            className="textarea w-full"
          />
          <p id="decline-note-hint" className="text-sm text-base-content/80">
            {t("consultation.declineForm.noteHint")}
          </p>
          <FieldErrors id="decline-note-error" errors={errors.note ?? undefined} />
        </div>
        <SubmitButton className="btn btn-outline btn-error self-start" busyLabel={t("forms.busy")}>
          {t("consultation.declineForm.submit")}
        </SubmitButton>
      </Form>
    </details>
  );
}
