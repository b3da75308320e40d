// Form fields bound to conform; their errors show through FieldErrors (form-basics).
import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";

import { FieldErrors } from "~/components/form-basics";

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
