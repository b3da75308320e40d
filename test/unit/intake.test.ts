import { describe, expect, it } from "vitest";

import { intakeOf, storedIntakeOf } from "~/domain/consultation-request";
import { type Intake, listOf, pregnancyApplies, SYMPTOMS, triageLine, type TriageWords } from "~/domain/intake";

const words: TriageWords = {
  separator: ", ",
  sexInitial: { female: "F", male: "M" },
  bodyArea: new Proxy({} as TriageWords["bodyArea"], { get: (_target, area) => String(area).replace(/_/g, " ") }),
  duration: (amount, unit) => `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`,
  symptom: { itch: "itch", pain: "pain", bleeding: "bleeding", spreading: "spreading", fever: "fever" },
  pregnancy: { pregnant: "pregnant", breastfeeding: "breastfeeding" },
};

const none: Intake = {
  ageYears: null,
  sex: null,
  bodyAreas: [],
  durationAmount: null,
  durationUnit: null,
  symptoms: [],
  treatmentsTried: "",
  allergies: "",
  pregnancy: null,
};

describe("the triage line", () => {
  it("reads as the issue's example", () => {
    const intake: Intake = {
      ...none,
      ageYears: 34,
      sex: "female",
      bodyAreas: ["left_forearm"],
      durationAmount: 3,
      durationUnit: "weeks",
      symptoms: ["itch", "spreading"],
      pregnancy: "no",
    };
    expect(triageLine(intake, words)).toBe("F, 34 · left forearm · 3 weeks · itch, spreading");
  });

  it("names a pregnancy, and leaves out what was not given", () => {
    expect(triageLine({ ...none, sex: "female", pregnancy: "pregnant", durationAmount: 1, durationUnit: "days" }, words)).toBe(
      "F · 1 day · pregnant",
    );
    expect(triageLine(none, words)).toBe("");
  });
});

describe("the stored intake", () => {
  it("keeps known values once, in canonical order, and reads them back", () => {
    expect(listOf(SYMPTOMS, "spreading,itch,sneezing,itch")).toEqual(["itch", "spreading"]);
    const stored = storedIntakeOf({
      ageYears: 30,
      sex: "male",
      bodyAreas: ["upper_back", "face"],
      symptoms: ["fever"],
      treatmentsTried: "",
      allergies: "",
      pregnancy: "pregnant",
    });
    expect(stored).toMatchObject({ bodyAreas: "face,upper_back", symptoms: "fever", pregnancy: null });
    expect(intakeOf(stored).bodyAreas).toEqual(["face", "upper_back"]);
  });

  it("asks about pregnancy only of women of an age it applies to", () => {
    expect(pregnancyApplies("female", 30)).toBe(true);
    expect(pregnancyApplies("female", null)).toBe(true);
    expect(pregnancyApplies("female", 8)).toBe(false);
    expect(pregnancyApplies("female", 70)).toBe(false);
    expect(pregnancyApplies("male", 30)).toBe(false);
  });
});
