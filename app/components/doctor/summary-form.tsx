import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";

import type { SummaryText } from "~/components/consultation-summary";
import { SubmitButton } from "~/components/form-basics";
import { MAX_SUMMARY_FIELD_CHARS } from "~/domain/constants";
import { CLOSING_INTENTS } from "~/domain/consultation-closing";
import type { DoctorClosingTexts } from "~/domain/views/doctor-closing-texts";

const FIELDS = ["observations", "diagnosis", "treatmentPlan"] as const;
const FORM_ID = "summary-form";

/**
 * The assigned doctor's summary, saved as they go, and ending the consultation with it: the confirm
 * button inside the disclosure belongs to the same form (the `form` attribute), so ending sends what is
 * typed, with or without script. Only the server checks it; its errors show here, with the words kept.
 * Its words come from the page (translated by the server), so no other page ships them.
 */
export function SummaryForm({
  saved,
  savedNewPhotosInDays,
  lastResult,
  canEnd,
  texts,
}: {
  saved: SummaryText;
  savedNewPhotosInDays: number | null;
  lastResult?: SubmissionResult<string[]> | null;
  /** Only a consultation in progress can be ended (not one still waiting for payment). */
  canEnd: boolean;
  texts: DoctorClosingTexts;
}) {
  const typed = lastResult?.initialValue;
  const errors = lastResult?.error ?? {};
  const valueOf = (field: (typeof FIELDS)[number]) => {
    const value = typed?.[field];
    return typeof value === "string" ? value : saved[field];
  };
  return (
    <section className="flex flex-col gap-3" aria-labelledby="summary-form-title">
      <h2 id="summary-form-title" className="text-lg font-bold">
        {texts.summaryTitle}
      </h2>
      <p className="text-sm text-base-content/80">{texts.hint}</p>
      {/* Keyed by the answer, so the server's kept words replace what the fields show. */}
      <Form method="post" id={FORM_ID} className="flex flex-col gap-3" key={`form:${JSON.stringify(typed ?? null)}`}>
        {FIELDS.map((field) => (
          <div key={field} className="flex flex-col gap-1">
            <label htmlFor={`summary-${field}`} className="font-medium">
              {texts.labels[field]}
            </label>
            <textarea
              id={`summary-${field}`}
              name={field}
              rows={field === "diagnosis" ? 2 : 4}
              maxLength={MAX_SUMMARY_FIELD_CHARS}
              defaultValue={valueOf(field)}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `summary-${field}-error` : undefined}
              className="textarea w-full"
            />
            {errors[field]?.length ? (
              <ul id={`summary-${field}-error`} className="text-sm text-error" aria-live="polite">
                {errors[field].map((error) => (
                  <li key={error}>{texts.messages[error] ?? texts.messages["forms.errors.invalid"]}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ))}
        <NewPhotosField
          value={typeof typed?.newPhotosInDays === "string" ? typed.newPhotosInDays : String(savedNewPhotosInDays ?? "")}
          errors={errors.newPhotosInDays}
          texts={texts}
        />
        <SubmitButton name="intent" value={CLOSING_INTENTS.saveSummary} className="btn btn-primary self-start" busyLabel={texts.busy}>
          {texts.save}
        </SubmitButton>
      </Form>
      {canEnd ? (
        // Closed again after every answer (a save, a refusal), like the form it belongs to.
        <details
          className="rounded-box border border-base-300 p-3"
          data-testid="end-consultation"
          key={`end:${JSON.stringify(typed ?? null)}`}
        >
          <summary className="cursor-pointer font-medium">{texts.endOpen}</summary>
          <div className="mt-3 flex flex-col gap-3">
            <p>{texts.endWarning}</p>
            <button type="submit" form={FORM_ID} name="intent" value={CLOSING_INTENTS.end} className="btn btn-error self-start">
              {texts.endConfirm}
            </button>
          </div>
        </details>
      ) : null}
    </section>
  );
}

/** "Send me new photos in N days" (optional): on that day the patient is reminded, with a way to send them. */
function NewPhotosField({ value, errors, texts }: { value: string; errors?: string[] | null; texts: DoctorClosingTexts }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="summary-newPhotosInDays" className="font-medium">
        {texts.newPhotos.label}
      </label>
      <input
        id="summary-newPhotosInDays"
        name="newPhotosInDays"
        inputMode="numeric"
        defaultValue={value}
        aria-invalid={errors ? true : undefined}
        aria-describedby={`summary-newPhotosInDays-hint${errors ? " summary-newPhotosInDays-error" : ""}`}
        className="input w-24"
      />
      <p id="summary-newPhotosInDays-hint" className="text-sm text-base-content/80">
        {texts.newPhotos.hint}
      </p>
      {errors?.length ? (
        <p id="summary-newPhotosInDays-error" className="text-sm text-error" aria-live="polite">
          {texts.messages[errors[0]!] ?? texts.messages["forms.errors.invalid"]}
        </p>
      ) : null}
    </div>
  );
}
