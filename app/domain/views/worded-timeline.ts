import type { ConsultationStatus } from "../consultation-status";
import type { TimelineStepState } from "../consultation-timeline";

/** A consultation's timeline as the server worded it for its patient (app/server/consultation-timeline.server.ts). */
export interface WordedTimeline {
  consultationId: string;
  /** The status it was read at: a room that reports another has more to tell. */
  status: ConsultationStatus;
  /** More may still happen to it: its page keeps listening to its room. */
  goesOn: boolean;
  /** What a screen reader hears of a step still to come. */
  toCome: string;
  steps: Array<{ label: string; state: TimelineStepState; time: string | null; dateTime: string | null }>;
}
