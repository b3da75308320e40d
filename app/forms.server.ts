// A refused form's errors in the reader's words, for the forms worded on the server (their pages ship
// none of these texts). The schema's messages are translation keys (forms.ts); each field shows its first.
import { type Translate, wordKey } from "~/i18n.server";

/** Each field's first error, translated; `values` fill the messages that speak of one (an amount). */
export function translatedFieldErrors(
  t: Translate,
  submission: { error?: Record<string, string[] | null> | null },
  values?: Record<string, string | number>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(submission.error ?? {}).map(([name, messages]) => [name, wordKey(t, messages?.[0] ?? "forms.errors.invalid", values)]),
  );
}
