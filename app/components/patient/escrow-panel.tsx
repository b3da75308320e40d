import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-fields";

export const CONFIRM_COMPLETE_INTENT = "confirm-complete";

/** Where the patient's payment is (worded by the server), and the form that releases it once the consultation is complete. */
export function EscrowPanel({ consultationId, escrow }: { consultationId: string; escrow: { notice: string; canConfirm: boolean } }) {
  const { t } = useTranslation();
  return (
    <section className="flex flex-col gap-2 rounded-box border border-base-300 p-3" data-testid="escrow">
      <h2 className="font-bold">{t("escrow.title")}</h2>
      <p>{escrow.notice}</p>
      {escrow.canConfirm ? (
        <Form method="post" action={`/patient/consultation/${consultationId}`}>
          <SubmitButton name="intent" value={CONFIRM_COMPLETE_INTENT} className="btn btn-primary btn-sm" busyLabel={t("forms.busy")}>
            {t("escrow.confirm")}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
