import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { NoteField } from "~/components/admin/note-field";
import { SubmitButton } from "~/components/form-basics";
import { MONEY_DECISION_INTENT } from "~/domain/money-decisions";

/**
 * An admin's decisions on a refund or payout the provider has not settled: ask it again and fail it once
 * it confirms (only while pending), or record it made outside the provider with a reason. Plain forms.
 */
export function MoneyDecisionForms({
  subject,
  id,
  pending,
  error,
}: {
  subject: "refund" | "payout";
  id: string;
  pending: boolean;
  /** The note's error, when this row's form came back refused. */
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 rounded-box bg-base-200/60 p-2" data-testid={`${subject}-decisions`}>
      {pending ? (
        <Form method="post" className="flex flex-wrap gap-2">
          <input type="hidden" name="intent" value={MONEY_DECISION_INTENT} />
          <input type="hidden" name="subject" value={subject} />
          <input type="hidden" name="id" value={id} />
          <SubmitButton name="decision" value="ask_again" className="btn btn-sm btn-outline" busyLabel={t("forms.busy")}>
            {t("admin.finance.decisions.askAgain")}
          </SubmitButton>
          <SubmitButton name="decision" value="fail" className="btn btn-sm btn-ghost" busyLabel={t("forms.busy")}>
            {t("admin.finance.decisions.fail")}
          </SubmitButton>
        </Form>
      ) : null}
      <Form method="post" className="flex flex-col gap-1" noValidate>
        <input type="hidden" name="intent" value={MONEY_DECISION_INTENT} />
        <input type="hidden" name="subject" value={subject} />
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="decision" value="settled_outside" />
        <NoteField
          id={`${subject}-${id}-note`}
          label={t(subject === "refund" ? "admin.finance.decisions.refundOutsideNote" : "admin.finance.decisions.payoutOutsideNote")}
          error={error}
          compact
        />
        <SubmitButton className="btn btn-sm btn-outline self-start" busyLabel={t("forms.busy")}>
          {t(subject === "refund" ? "admin.finance.decisions.refundOutside" : "admin.finance.decisions.payoutOutside")}
        </SubmitButton>
      </Form>
    </div>
  );
}
