import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";

import { CheckboxField } from "~/components/form-fields";

/**
 * The two consent boxes, each linking its document in a new tab. Buttons marked `needsConsent` wait
 * for both (the page's script on a static page); a hydrated page may also follow each change.
 */
export function ConsentCheckboxes({
  terms,
  privacy,
  onTermsChange,
  onPrivacyChange,
}: {
  terms: FieldMetadata<"on" | undefined>;
  privacy: FieldMetadata<"on" | undefined>;
  onTermsChange?: (checked: boolean) => void;
  onPrivacyChange?: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <CheckboxField meta={terms} onCheckedChange={onTermsChange} hideErrors consent>
        {t("auth.consent.agreeTo")}{" "}
        <a href="/terms" target="_blank" rel="noopener" className="link link-primary">
          {t("footer.terms")}
        </a>
      </CheckboxField>
      <CheckboxField meta={privacy} onCheckedChange={onPrivacyChange} hideErrors consent>
        {t("auth.consent.agreeTo")}{" "}
        <a href="/privacy" target="_blank" rel="noopener" className="link link-primary">
          {t("footer.privacy")}
        </a>
      </CheckboxField>
    </div>
  );
}
