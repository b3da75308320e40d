// A panel whose words the server chose in the reader's language (the page ships none of its texts):
// a title, a few lines, and at most one plain form (a select, a text area) that works without
// JavaScript, or a link to a page of its own. The money panels of a consultation (where the payment is
// and its receipt, a dispute, an answer) use it.
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import type { WordedPanelProps } from "~/domain/views/panel-words";

/** `headingLevel` 1 when the panel is the page (its title is the page's heading). */
export function WordedPanel({ id, title, lines, link, form, headingLevel = 2 }: WordedPanelProps & { headingLevel?: 1 | 2 }) {
  const { t } = useTranslation();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const fields = form ? (
    <Form method="post" action={form.action} className="flex flex-col gap-3" noValidate>
      {form.fields.map((field) => {
        const fieldId = `${id}-${field.name}`;
        const errorId = `${fieldId}-error`;
        const common = {
          id: fieldId,
          name: field.name,
          defaultValue: field.value,
          "aria-invalid": field.error ? true : undefined,
          "aria-describedby": field.error ? errorId : undefined,
        };
        return (
          <div key={field.name} className="flex flex-col gap-1">
            <label htmlFor={fieldId} className="font-medium">
              {field.label}
            </label>
            {field.kind === "select" ? (
              <select {...common} className="select w-full">
                {field.options?.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : field.kind === "textarea" ? (
              <textarea {...common} rows={4} className="textarea w-full" />
            ) : field.kind === "password" ? (
              <input {...common} defaultValue={undefined} type="password" autoComplete="current-password" className="input w-full" />
            ) : (
              <input {...common} className="input w-full" />
            )}
            {field.error ? (
              <p id={errorId} className="text-sm text-error">
                {field.error}
              </p>
            ) : null}
          </div>
        );
      })}
      <SubmitButton name="intent" value={form.intent} className="btn btn-primary btn-sm self-start" busyLabel={t("forms.busy")}>
        {form.submit}
      </SubmitButton>
    </Form>
  ) : null;
  return (
    <section className="flex flex-col gap-2 rounded-box border border-base-300 p-3" data-testid={id} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className={headingLevel === 1 ? "text-2xl font-bold" : "font-bold"}>
        {title}
      </Heading>
      {lines.map((line) => (
        <p key={line} className="whitespace-pre-wrap">
          {line}
        </p>
      ))}
      {link ? (
        <Link to={link.to} className="link self-start" data-testid={`${id}-link`}>
          {link.label}
        </Link>
      ) : null}
      {form?.disclosure ? (
        <details open={form.open}>
          <summary className="cursor-pointer font-medium">{form.disclosure}</summary>
          <div className="mt-3">{fields}</div>
        </details>
      ) : (
        fields
      )}
    </section>
  );
}
