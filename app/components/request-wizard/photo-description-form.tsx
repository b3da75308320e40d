import { Form } from "@remix-run/react";
import { useState } from "react";

import { useHydrated } from "~/components/use-hydrated";
import { DESCRIBE_PHOTO_INTENT } from "~/domain/photo-description";
import type { PhotoStepWords } from "~/domain/views/photo-step-words";

/** The two lists of what a photo shows (its kind and body area), each with its label; empty is "not chosen". */
export function PhotoDescriptionFields({
  words,
  photoKind = null,
  bodyArea = null,
}: {
  words: PhotoStepWords;
  photoKind?: string | null;
  bodyArea?: string | null;
}) {
  const lists = [
    ["photoKind", words.kindLabel, words.kinds, photoKind],
    ["bodyArea", words.areaLabel, words.areas, bodyArea],
  ] as const;
  return lists.map(([name, label, choices, chosen]) => (
    <label key={name} className="flex flex-col gap-1 text-xs">
      <span className="font-medium">{label}</span>
      <select name={name} defaultValue={chosen ?? ""} className="select select-sm w-full">
        <option value="">{words.notChosen}</option>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  ));
}

/**
 * What one uploaded photo shows. Without JavaScript a form with its Save button; with it, each change is
 * saved at once (through the photos resource route) and the result said beside it.
 */
export function PhotoDescriptionForm({
  photoId,
  words,
  photoKind,
  bodyArea,
}: {
  photoId: string;
  words: PhotoStepWords;
  photoKind?: string | null;
  bodyArea?: string | null;
}) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState("");
  return (
    <Form
      method="post"
      preventScrollReset
      className="flex flex-col gap-1 px-2 pt-2"
      data-testid="photo-description"
      onChange={async (event) => {
        const form = new FormData(event.currentTarget);
        form.set("intent", DESCRIBE_PHOTO_INTENT);
        setSaid("");
        const response = await fetch("/patient/new-consultation/photos", { method: "POST", body: form }).catch(() => null);
        const answer = (await response?.json().catch(() => null)) as { error?: string } | null;
        setSaid(response?.ok ? words.saved : (answer?.error ?? words.saveFailed));
      }}
    >
      <input type="hidden" name="photoId" value={photoId} />
      <PhotoDescriptionFields words={words} photoKind={photoKind} bodyArea={bodyArea} />
      {hydrated ? (
        <span role="status" className="min-h-4 text-xs" data-testid="photo-description-status">
          {said}
        </span>
      ) : (
        <button type="submit" name="intent" value={DESCRIBE_PHOTO_INTENT} className="btn btn-outline btn-xs">
          {words.save}
        </button>
      )}
    </Form>
  );
}
