import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

import { SubmitButton } from "~/components/form-basics";
import { DELETE_PHOTOS_INTENT } from "~/domain/consultation-decisions";

/** Deleting every photo of a completed consultation, after a confirmation (a disclosure: no script needed). */
export function DeletePhotosForm({ consultationId, photoCount }: { consultationId: string; photoCount: number }) {
  const { t } = useTranslation();
  if (photoCount === 0) return <p className="text-sm text-base-content/80">{t("photos.noneLeft")}</p>;
  return (
    <details className="rounded-box border border-base-300 p-3" data-testid="delete-photos">
      <summary className="cursor-pointer font-medium">{t("photos.deleteOpen")}</summary>
      <Form method="post" action={`/patient/consultation/${consultationId}`} className="mt-3 flex flex-col gap-3">
        <p>{t("photos.deleteExplain")}</p>
        <SubmitButton name="intent" value={DELETE_PHOTOS_INTENT} className="btn btn-error self-start" busyLabel={t("forms.busy")}>
          {t("photos.deleteConfirm")}
        </SubmitButton>
      </Form>
    </details>
  );
}
