// One way to read a posted form against its zod schema, used by the browser (conform's onValidate)
// and again by the action on the server. Schemas that reach the browser are written with `zod/mini`,
// and this reads them through zod's core, so no page ships the whole of zod (docs/decisions/0014).
import { formatPaths, parse, type Submission } from "@conform-to/dom";
import { type $ZodType, type output, safeParse } from "zod/v4/core";

/** An empty field is an absent one: "" and an unchosen file become undefined, as browsers mean them. */
function withoutEmptyFields(value: unknown): unknown {
  if (value === "") return undefined;
  if (typeof File !== "undefined" && value instanceof File) return value.size === 0 && value.name === "" ? undefined : value;
  if (Array.isArray(value)) return value.map(withoutEmptyFields);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutEmptyFields(item)]));
  return value;
}

/** The form's submission: its typed value, or its errors by field name (translation keys). */
export function parseForm<Schema extends $ZodType>(
  payload: FormData | URLSearchParams,
  schema: Schema,
): Submission<output<Schema>, string[]> {
  return parse(payload, {
    resolve(value) {
      const result = safeParse(schema, withoutEmptyFields(value));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = formatPaths(issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)));
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  });
}

/** Whether a refused submission lacks a required field (else its fields are there but not right). */
export function lacksRequiredField(submission: { error?: Record<string, string[] | null> | null }): boolean {
  return Object.values(submission.error ?? {}).some((messages) =>
    (messages ?? []).some((message) => message === "forms.errors.required" || message.endsWith("Required")),
  );
}
