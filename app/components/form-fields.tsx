// Form fields bound to conform. Error messages are translation keys; they are translated here, so a
// message reads the same whether the browser or the server found the problem.
import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
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

type InputType = "text" | "email" | "password" | "tel" | "date" | "number";

export function TextField({
  meta,
  label,
  type = "text",
  hint,
  ...inputProps
}: {
  meta: FieldMetadata<string | null | undefined>;
  label: string;
  type?: InputType;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue">) {
  const props = getInputProps(meta, { type, ariaAttributes: true });
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="font-medium">
        {label}
      </label>
      <input {...props} {...inputProps} key={props.key} className={`input w-full ${meta.errors ? "input-error" : ""}`} />
      {hint ? <p className="text-sm text-base-content/70">{hint}</p> : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function CheckboxField({
  meta,
  children,
  onCheckedChange,
  hideErrors = false,
  consent = false,
}: {
  meta: FieldMetadata<"on" | undefined>;
  children: ReactNode;
  /** Told of every change, for pages that enable a button once a box is ticked; the box stays the browser's. */
  onCheckedChange?: (checked: boolean) => void;
  /** When the page states the error elsewhere (e.g. above the form). */
  hideErrors?: boolean;
  /** A consent box: buttons marked `needsConsent` wait for it (static-page-script). */
  consent?: boolean;
}) {
  const { key, ...props } = getInputProps(meta, { type: "checkbox", ariaAttributes: true });
  return (
    <div className="flex items-start gap-3">
      <input
        key={key}
        {...props}
        onChange={onCheckedChange ? (event) => onCheckedChange(event.target.checked) : undefined}
        data-consent={consent ? "" : undefined}
        className="checkbox checkbox-primary mt-0.5"
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={meta.id} className="text-sm leading-relaxed">
          {children}
        </label>
        {hideErrors ? null : <FieldErrors id={meta.errorId} errors={meta.errors} />}
      </div>
    </div>
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
