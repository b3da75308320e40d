import type { PhotoQualityIssue } from "../photo-quality";

/** A value of a list and its words, in the list's order. */
type Choice = [value: string, words: string];

/**
 * The words of the guided photos on step 1 (the guide, each photo's kind and body area, the quality
 * warning), translated by the server (app/server/guided-photos.server.ts): they ship as data, not as JS.
 */
export interface PhotoStepWords {
  guide: { title: string; describe: string; examples: Array<{ image: string; title: string; text: string; alt: string }> };
  kindLabel: string;
  areaLabel: string;
  notChosen: string;
  save: string;
  saved: string;
  saveFailed: string;
  forThisUpload: string;
  /** A photo chosen without a connection: kept here, sent when the network returns. */
  waiting: string;
  kinds: Choice[];
  areas: Choice[];
  quality: Record<PhotoQualityIssue | "advice" | "retake" | "useAnyway", string>;
}
