import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { CheckboxField } from "~/components/form-fields";

/** The two consent boxes, each linking its document in a new tab; tells the page when either changes. */
export function ConsentCheckboxes({ terms, privacy, onTermsChange, onPrivacyChange }: {
  terms: FieldMetadata<boolean | null | undefined>;
  privacy: FieldMetadata<boolean | null | undefined>;
  onTermsChange: (checked: boolean) => void;
  onPrivacyChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <CheckboxField meta={terms} onCheckedChange={onTermsChange} hideErrors>
        {t("auth.consent.agreeTo")}{" "}
        <a href="/terms" target="_blank" rel="noopener" className="link link-primary">{t("footer.terms")}</a>
      </CheckboxField>
      <CheckboxField meta={privacy} onCheckedChange={onPrivacyChange} hideErrors>
        {t("auth.consent.agreeTo")}{" "}
        <a href="/privacy" target="_blank" rel="noopener" className="link link-primary">{t("footer.privacy")}</a>
      </CheckboxField>
    </div>
  );
}
