import { Fragment } from "react";

import type { IntakeView } from "~/domain/views/intake-view";

/** The triage line and what the patient answered; nothing for a consultation from before the intake. */
export function IntakeSummary({ intake }: { intake: IntakeView | null }) {
  if (!intake) return null;
  return (
    <section className="flex flex-col gap-1" aria-labelledby="intake-summary-heading">
      <h2 id="intake-summary-heading" className="font-bold">
        {intake.heading}
      </h2>
      <p className="font-semibold break-words" data-testid="triage-line">
        {intake.triage}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {intake.rows.map((row) => (
          <Fragment key={row.label}>
            <dt className="text-base-content/70">{row.label}</dt>
            <dd className="break-words whitespace-pre-line">{row.text}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
