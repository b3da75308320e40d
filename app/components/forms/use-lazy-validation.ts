import { parse, type Submission } from "@conform-to/dom";
import { useCallback, useRef } from "react";

export type FormValidator = (formData: FormData) => Submission<unknown, string[]>;

/** A submission that finds nothing wrong: the server, which always checks, will answer instead. */
const unchecked: FormValidator = (formData) => parse(formData, { resolve: (value) => ({ value }) });

/**
 * Validation in the browser without shipping zod with the page (docs/decisions/0014): the form's
 * validator (its schema, and zod) loads when the person first focuses the form. Until it arrives, or
 * if it cannot, the form goes to the server, which checks it anyway.
 */
export function useLazyValidation<FormShape>(load: () => Promise<FormValidator>) {
  const validator = useRef<FormValidator>(unchecked);
  const loading = useRef<Promise<void> | null>(null);
  const onFocusCapture = useCallback(() => {
    loading.current ??= load().then(
      (loaded) => void (validator.current = loaded),
      () => undefined,
    );
  }, [load]);
  // The validator's value is the schema's output; conform only reads its errors and intent here.
  const onValidate = useCallback(
    ({ formData }: { formData: FormData }) => validator.current(formData) as Submission<FormShape, string[]>,
    [],
  );
  return { onValidate, onFocusCapture };
}
