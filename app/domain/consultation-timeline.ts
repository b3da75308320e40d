// A consultation's timeline as its patient reads it: what has happened to it, each with its time, in the
// order it happened, then what is still to come. Made only from facts stored elsewhere (the consultation's
// own times, its payment, its escrow and dispute, the ledger, the feedback), never kept as events of its own.
import { type ConsultationStatus, isActiveStatus } from "./consultation-status";

/** Every step a timeline may show; ties in time keep this order. */
const TIMELINE_STEPS = [
  "submitted",
  "declined",
  "withdrawn",
  "accepted",
  "paid",
  "chatting",
  "cancelled",
  "summary_ready",
  "confirmed",
  "disputed",
  /** Still to come: the patient confirms the consultation complete, or disputes it. */
  "confirm_or_dispute",
  "released",
  "refund_started",
  "refunded",
  /** Still to come: the payment goes to the doctor, or back to the patient. */
  "release_or_refund",
  "rated",
] as const;
type TimelineStepKind = (typeof TIMELINE_STEPS)[number];

/** Done: it happened. Current: the latest that happened (where the consultation stands). Next: still to come. */
export type TimelineStepState = "done" | "current" | "next";

export interface TimelineStep {
  kind: TimelineStepKind;
  state: TimelineStepState;
  /** When it happened; null for a step still to come. */
  at: Date | null;
}

export interface TimelineFacts {
  status: ConsultationStatus;
  /** When the patient made the request. */
  submittedAt: Date;
  /** When its doctor of the moment accepted it (cleared when a payment window closed). */
  acceptedAt: Date | null;
  /** When the payment that started it was received. */
  paidAt: Date | null;
  /** When its chat began (the payment's confirmation). */
  startedAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  /** Cancelled because a doctor declined it. */
  declined: boolean;
  /** When the patient said it was complete (which released the payment). */
  confirmedAt: Date | null;
  disputedAt: Date | null;
  /** When its payment (all of it, or what a dispute left) was released to the doctor. */
  releasedAt: Date | null;
  /** The payment given back to the patient (in whole or in part): asked of the provider, and settled. */
  refund: { startedAt: Date; settledAt: Date | null } | null;
  ratedAt: Date | null;
}

const order = (kind: TimelineStepKind) => TIMELINE_STEPS.indexOf(kind);

/** How a cancelled consultation ended: declined by a doctor, withdrawn by its patient, or ended by an admin after payment. */
function endingOf(facts: TimelineFacts): TimelineStepKind {
  if (facts.declined) return "declined";
  return facts.startedAt ? "cancelled" : "withdrawn";
}

/** The steps that have happened, each with its time. */
function happened(facts: TimelineFacts): Array<{ kind: TimelineStepKind; at: Date }> {
  const refund: [TimelineStepKind, Date | null] = facts.refund?.settledAt
    ? ["refunded", facts.refund.settledAt]
    : ["refund_started", facts.refund?.startedAt ?? null];
  const candidates: Array<[TimelineStepKind, Date | null]> = [
    ["submitted", facts.submittedAt],
    ["accepted", facts.acceptedAt],
    ["paid", facts.paidAt],
    ["chatting", facts.startedAt],
    ["summary_ready", facts.status === "completed" ? facts.completedAt : null],
    [endingOf(facts), facts.status === "cancelled" ? facts.cancelledAt : null],
    ["confirmed", facts.confirmedAt],
    ["disputed", facts.disputedAt],
    ["released", facts.releasedAt],
    refund,
    ["rated", facts.ratedAt],
  ];
  return candidates
    .filter((candidate): candidate is [TimelineStepKind, Date] => candidate[1] !== null)
    .map(([kind, at]) => ({ kind, at }))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || order(a.kind) - order(b.kind));
}

/** What follows the doctor's end: the patient's word on it, where the money goes, and the rating. */
function afterTheEnd(facts: TimelineFacts): TimelineStepKind[] {
  const rating: TimelineStepKind[] = facts.ratedAt ? [] : ["rated"];
  // Ended and never paid through Qoda's escrow (older records): there is no money to follow.
  if (facts.status === "completed" && !facts.paidAt) return rating;
  const moneyMoved = facts.releasedAt !== null || facts.refund !== null;
  // Released by the schedule with no word from the patient: that chance has passed.
  const verdict: TimelineStepKind[] = facts.confirmedAt || facts.disputedAt || moneyMoved ? [] : ["confirm_or_dispute"];
  const money: TimelineStepKind[] = facts.refund && !facts.refund.settledAt ? ["refunded"] : moneyMoved ? [] : ["release_or_refund"];
  return [...verdict, ...money, ...rating];
}

/** The steps still to come, in the order they would come. */
function upcoming(facts: TimelineFacts): TimelineStepKind[] {
  switch (facts.status) {
    case "awaiting_assets":
    case "pending":
      return ["accepted", "paid", "chatting", "summary_ready", ...afterTheEnd(facts)];
    case "accepted_awaiting_payment":
      return ["paid", "chatting", "summary_ready", ...afterTheEnd(facts)];
    case "in_progress":
      return ["summary_ready", ...afterTheEnd(facts)];
    case "completed":
      return afterTheEnd(facts);
    case "cancelled":
      // Ended by an admin after it was paid: the refund is still to come until the provider settles it.
      return facts.startedAt && !facts.refund?.settledAt ? ["refunded"] : [];
  }
}

/** The consultation's timeline: what happened, in the order it happened (the latest is current), then what is to come. */
export function consultationTimeline(facts: TimelineFacts): TimelineStep[] {
  const done = happened(facts);
  return [
    ...done.map(({ kind, at }, index): TimelineStep => ({ kind, at, state: index === done.length - 1 ? "current" : "done" })),
    ...upcoming(facts).map((kind): TimelineStep => ({ kind, at: null, state: "next" })),
  ];
}

/** Whether more may still happen to it (so its pages keep listening for it). */
export function timelineGoesOn(steps: TimelineStep[]): boolean {
  return steps.some((step) => step.state === "next");
}

/**
 * The consultation a patient's dashboard follows, of theirs newest first: the newest a doctor has (under
 * way or awaiting payment), else the newest waiting for a doctor, else the newest of all.
 */
export function consultationToFollow<Row extends { status: ConsultationStatus }>(newestFirst: Row[]): Row | null {
  return (
    newestFirst.find((row) => isActiveStatus(row.status)) ?? newestFirst.find((row) => row.status === "pending") ?? newestFirst[0] ?? null
  );
}
