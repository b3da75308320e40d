import type { FieldMetadata } from "@conform-to/react";

import { FieldErrors } from "~/components/form-basics";
import {
  BODY_AREAS,
  BODY_AREAS_BACK,
  BODY_AREAS_FRONT,
  type BodyArea,
  DURATION_UNITS,
  type IntakeFormWords,
  MAX_AGE_YEARS,
  MAX_DURATION_AMOUNT,
  MAX_INTAKE_NOTE_CHARS,
  PREGNANCY_STATES,
  SEXES,
  SYMPTOMS,
} from "~/domain/intake";

// Where each area lies on the outline (public/images/body-outline.svg, 100 × 220 units): x, y, width,
// height. The front view shows the patient's right on the viewer's left.
const AREA_BOXES: Record<BodyArea, [number, number, number, number]> = {
  face: [40, 7, 20, 22],
  neck: [43, 29, 14, 10],
  chest: [33, 40, 34, 26],
  abdomen: [34, 66, 32, 26],
  groin: [38, 92, 24, 15],
  right_upper_arm: [19, 42, 12, 29],
  left_upper_arm: [69, 42, 12, 29],
  right_forearm: [11, 72, 15, 28],
  left_forearm: [74, 72, 15, 28],
  right_hand: [6, 100, 16, 17],
  left_hand: [78, 100, 16, 17],
  right_thigh: [34, 108, 15, 42],
  left_thigh: [51, 108, 15, 42],
  right_lower_leg: [35, 150, 14, 45],
  left_lower_leg: [51, 150, 14, 45],
  right_foot: [31, 195, 18, 13],
  left_foot: [51, 195, 18, 13],
  scalp: [37, 4, 26, 22],
  upper_back: [33, 40, 34, 26],
  lower_back: [34, 66, 32, 26],
  buttocks: [35, 92, 30, 18],
};

const areaInputId = (area: BodyArea) => `body-area-${area}`;

// The map's areas light up from their checkboxes' state and the pregnancy question hides for men, by CSS
// alone, so both work without JavaScript.
const INTAKE_CSS = [
  ...BODY_AREAS.map(
    (area) =>
      `#intake:has(#${areaInputId(area)}:checked) [data-area="${area}"]{background:color-mix(in oklab,var(--color-primary) 45%,transparent);border-style:solid}` +
      `#intake:has(#${areaInputId(area)}:focus-visible) [data-area="${area}"]{outline:2px solid var(--color-primary)}`,
  ),
  `#intake:has(input[name="sex"][value="male"]:checked) [data-pregnancy]{display:none}`,
].join("");

type Fields = Record<
  "ageYears" | "sex" | "bodyAreas" | "durationAmount" | "durationUnit" | "symptoms" | "treatmentsTried" | "allergies" | "pregnancy",
  FieldMetadata<unknown>
>;

/** A whole number within a range, as the intake's schema reads it (app/domain/consultation-request.ts). */
function WholeNumberInput({ meta, min, max, id }: { meta: FieldMetadata<unknown>; min: number; max: number; id?: string }) {
  return (
    <input
      id={id}
      name={meta.name}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      defaultValue={String(meta.initialValue ?? "")}
      aria-invalid={meta.errors ? true : undefined}
      aria-describedby={meta.errors ? meta.errorId : undefined}
      className={`input w-full ${meta.errors ? "input-error" : ""}`}
    />
  );
}

const listValue = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : []);

/** Step 2's structured intake: age, sex, the body map, how long, symptoms, treatments, allergies, pregnancy. */
export function IntakeFields({ fields, words }: { fields: Fields; words: IntakeFormWords }) {
  const chosenAreas = listValue(fields.bodyAreas.initialValue);
  const chosenSymptoms = listValue(fields.symptoms.initialValue);
  const figure = (areas: readonly BodyArea[], caption: string) => (
    <figure className="flex flex-col items-center gap-1">
      <div className="relative w-full max-w-40" style={{ aspectRatio: "100 / 220" }}>
        <img src="/images/body-outline.svg" alt="" width={100} height={220} className="h-full w-full" />
        {areas.map((area) => {
          const [x, y, width, height] = AREA_BOXES[area];
          return (
            <label
              key={area}
              htmlFor={areaInputId(area)}
              data-area={area}
              title={words.areas[area]}
              className="absolute cursor-pointer rounded-lg border border-dashed border-primary/60 hover:bg-primary/20"
              style={{ left: `${x}%`, top: `${(y / 220) * 100}%`, width: `${width}%`, height: `${(height / 220) * 100}%` }}
            />
          );
        })}
      </div>
      <figcaption className="text-sm font-medium">{caption}</figcaption>
    </figure>
  );
  const areaBox = (area: BodyArea) => (
    <label key={area} className="flex min-h-6 items-center gap-2 text-sm">
      <input
        type="checkbox"
        id={areaInputId(area)}
        name={fields.bodyAreas.name}
        value={area}
        defaultChecked={chosenAreas.includes(area)}
        className="checkbox checkbox-sm checkbox-primary"
      />
      {words.areas[area]}
    </label>
  );
  return (
    <section id="intake" className="flex flex-col gap-4" aria-labelledby="intake-heading">
      {/* Raw, as a style element's text must be (React would escape its quotes); our own constants only. */}
      <style dangerouslySetInnerHTML={{ __html: INTAKE_CSS }} />
      <h3 id="intake-heading" className="text-lg font-semibold">
        {words.title}
      </h3>
      <div className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.ageYears.id} className="font-medium">
            {words.ageYears}
          </label>
          <WholeNumberInput meta={fields.ageYears} min={0} max={MAX_AGE_YEARS} id={fields.ageYears.id} />
          <FieldErrors id={fields.ageYears.errorId} errors={fields.ageYears.errors} />
        </div>
        <fieldset className="flex flex-col gap-1" aria-describedby={fields.sex.errors ? fields.sex.errorId : undefined}>
          <legend className="mb-1 font-medium">{words.sex}</legend>
          {SEXES.map((sex) => (
            <label key={sex} className="flex min-h-6 items-center gap-2">
              <input
                type="radio"
                name={fields.sex.name}
                value={sex}
                defaultChecked={fields.sex.initialValue === sex}
                className="radio radio-primary radio-sm"
              />
              {words.sexes[sex]}
            </label>
          ))}
          <FieldErrors id={fields.sex.errorId} errors={fields.sex.errors} />
        </fieldset>
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={`body-map-hint ${fields.bodyAreas.errors ? fields.bodyAreas.errorId : ""}`}
      >
        <legend className="mb-1 font-medium">{words.bodyMap}</legend>
        <p id="body-map-hint" className="text-sm text-base-content/70">
          {words.bodyMapHint}
        </p>
        <div className="grid grid-cols-2 gap-3" aria-hidden="true">
          {figure(BODY_AREAS_FRONT, words.front)}
          {figure(BODY_AREAS_BACK, words.back)}
        </div>
        <div className="grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-3">{BODY_AREAS.map(areaBox)}</div>
        <FieldErrors id={fields.bodyAreas.errorId} errors={fields.bodyAreas.errors} />
      </fieldset>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 font-medium">{words.duration}</legend>
        <div className="grid grid-cols-2 gap-3">
          <label className="flex flex-col gap-1 text-sm">
            {words.durationAmount}
            <WholeNumberInput meta={fields.durationAmount} min={1} max={MAX_DURATION_AMOUNT} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            {words.durationUnit}
            <select
              name={fields.durationUnit.name}
              defaultValue={String(fields.durationUnit.initialValue ?? "")}
              aria-invalid={fields.durationUnit.errors ? true : undefined}
              aria-describedby={fields.durationUnit.errors ? fields.durationUnit.errorId : undefined}
              className={`select w-full ${fields.durationUnit.errors ? "select-error" : ""}`}
            >
              <option value="" disabled>
                …
              </option>
              {DURATION_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {words.units[unit]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <FieldErrors id={fields.durationAmount.errorId} errors={fields.durationAmount.errors} />
        <FieldErrors id={fields.durationUnit.errorId} errors={fields.durationUnit.errors} />
      </fieldset>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 font-medium">{words.symptoms}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {SYMPTOMS.map((symptom) => (
            <label key={symptom} className="flex min-h-6 items-center gap-2">
              <input
                type="checkbox"
                name={fields.symptoms.name}
                value={symptom}
                defaultChecked={chosenSymptoms.includes(symptom)}
                className="checkbox checkbox-sm checkbox-primary"
              />
              {words.symptomNames[symptom]}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.symptoms.errorId} errors={fields.symptoms.errors} />
      </fieldset>
      {(["treatmentsTried", "allergies"] as const).map((name) => (
        <div key={name} className="flex flex-col gap-1">
          <label htmlFor={fields[name].id} className="font-medium">
            {words[name]}
          </label>
          <input
            id={fields[name].id}
            name={fields[name].name}
            type="text"
            maxLength={MAX_INTAKE_NOTE_CHARS}
            defaultValue={String(fields[name].initialValue ?? "")}
            className="input w-full"
          />
          <FieldErrors id={fields[name].errorId} errors={fields[name].errors} />
        </div>
      ))}
      <fieldset className="flex flex-col gap-1" data-pregnancy>
        <legend className="mb-1 font-medium">{words.pregnancy}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {PREGNANCY_STATES.map((state) => (
            <label key={state} className="flex min-h-6 items-center gap-2">
              <input
                type="radio"
                name={fields.pregnancy.name}
                value={state}
                defaultChecked={(fields.pregnancy.initialValue ?? "no") === state}
                className="radio radio-primary radio-sm"
              />
              {words.pregnancyStates[state]}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.pregnancy.errorId} errors={fields.pregnancy.errors} />
      </fieldset>
    </section>
  );
}
