// The plain parts of every form: its errors (translation keys, translated here, so a message reads the
// same whether the browser or the server found the problem), a problem with the whole form, and the
// submit button. Apart from the conform-bound fields (form-fields), so a page with plain forms ships no
// form library.
import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { isTextKey } from "~/i18n";

/** Translates a form error that crossed the wire as a plain string (a key, as the schemas write them). */
export function useErrorText() {
  const { t, i18n } = useTranslation();
  return (error: string) => (isTextKey(i18n, error) ? t(error) : t("forms.errors.invalid"));
}

export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  const errorText = useErrorText();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="text-sm text-error" aria-live="polite">
      {errors.map((error) => (
        <li key={error}>{errorText(error)}</li>
      ))}
    </ul>
  );
}

/** A problem with the whole form (wrong password, too many attempts), shown above it. */
export function FormAlert({ title, message, children }: { title?: string; message: string; children?: ReactNode }) {
  return (
    <div role="alert" className="alert alert-error flex flex-col items-start gap-1" data-testid="form-alert">
      {title ? <p className="font-bold">{title}</p> : null}
      <p>{message}</p>
      {children}
    </div>
  );
}

/**
 * Disabled while its form is being submitted, so a double tap sends it once. On a static page the
 * inline script does the same from `data-busy-label`, and `needsConsent` makes it wait for the
 * page's consent boxes (static-page-script).
 */
export function SubmitButton({
  children,
  busyLabel,
  disabled,
  needsConsent,
  className = "btn btn-primary w-full",
  name,
  value,
}: {
  children: ReactNode;
  busyLabel?: string;
  disabled?: boolean;
  needsConsent?: boolean;
  className?: string;
  name?: string;
  value?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button
      type="submit"
      className={className}
      disabled={disabled || busy}
      aria-disabled={disabled || busy}
      name={name}
      value={value}
      data-busy-label={busyLabel}
      data-needs-consent={needsConsent ? "" : undefined}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
