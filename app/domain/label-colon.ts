// A label and its value joined in the label's own script: Amharic writes ፦ (the preface colon) where
// English writes ":" (review 2, L27; review 3, S25). The label decides, since the value may be a number,
// a code or a Latin address.

/** An Ethiopic letter at the end of a label, perhaps inside a closing bracket or quote: "ዕድሜ (በዓመት)". */
const ENDS_IN_ETHIOPIC = /[\u1200-\u137F][)\]»”’]*$/;

/** The colon that follows `label`: ፦ after Amharic, ":" after anything else. */
export const labelColon = (label: string) => (ENDS_IN_ETHIOPIC.test(label) ? "፦" : ":");

/** "label: value" in English, "label፦ value" in Amharic. */
export const labelled = (label: string, value: string | number) => `${label}${labelColon(label)} ${value}`;
