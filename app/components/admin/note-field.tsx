import { MAX_RESOLUTION_NOTE_CHARS } from "~/domain/reconciliation";

/**
 * An admin's note (`name="note"`) in a plain form, with the error the server sent back for it: the field
 * points to its message (aria-invalid, aria-describedby), so it is read with or without JavaScript.
 */
export function NoteField({
  id,
  label,
  error,
  compact = false,
}: {
  id: string;
  label: string;
  error?: string | null;
  /** A smaller field, for a form among others in a row. */
  compact?: boolean;
}) {
  const errorId = `${id}-error`;
  return (
    <>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        name="note"
        rows={2}
        maxLength={MAX_RESOLUTION_NOTE_CHARS}
        className={`textarea w-full${compact ? " textarea-sm" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
