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
        <SentenceWithLink text={t("auth.consent.agreeToTerms")} href="/terms" />
      </CheckboxField>
      <CheckboxField meta={privacy} onCheckedChange={onPrivacyChange} hideErrors consent>
        <SentenceWithLink text={t("auth.consent.agreeToPrivacy")} href="/privacy" />
      </CheckboxField>
    </div>
  );
}

/**
 * A translated sentence whose `<0>…</0>` part is the document's link, so each language puts the
 * document where its grammar wants it (Amharic before the verb, English after).
 */
function SentenceWithLink({ text, href }: { text: string; href: string }) {
  const [before = "", linked = "", after = ""] = text.split(/<0>|<\/0>/);
  return (
    <>
      {before}
      <a href={href} target="_blank" rel="noopener" className="link link-primary">
        {linked}
      </a>
      {after}
    </>
  );
}
