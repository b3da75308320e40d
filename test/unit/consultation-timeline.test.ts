import { describe, expect, it } from "vitest";

import { consultationTimeline, consultationToFollow, type TimelineFacts, timelineGoesOn } from "~/domain/consultation-timeline";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 9, 0) + minute * 60_000);

const submitted: TimelineFacts = {
  status: "pending",
  submittedAt: at(0),
  acceptedAt: null,
  paidAt: null,
  startedAt: null,
  completedAt: null,
  cancelledAt: null,
  declined: false,
  confirmedAt: null,
  disputedAt: null,
  releasedAt: null,
  refund: null,
  ratedAt: null,
};
const accepted: TimelineFacts = { ...submitted, status: "accepted_awaiting_payment", acceptedAt: at(2) };
const chatting: TimelineFacts = { ...accepted, status: "in_progress", paidAt: at(5), startedAt: at(5) };
const ended: TimelineFacts = { ...chatting, status: "completed", completedAt: at(40) };

/** The timeline as "kind:state" words, easy to read in a failure. */
const read = (facts: TimelineFacts) => consultationTimeline(facts).map((step) => `${step.kind}:${step.state}`);

describe("a consultation's timeline", () => {
  it("shows a waiting request as sent, with every step still to come", () => {
    expect(read(submitted)).toEqual([
      "submitted:current",
      "accepted:next",
      "paid:next",
      "chatting:next",
      "summary_ready:next",
      "confirm_or_dispute:next",
      "release_or_refund:next",
      "rated:next",
    ]);
    expect(consultationTimeline(submitted)[0]!.at).toEqual(at(0));
    expect(
      consultationTimeline(submitted)
        .slice(1)
        .every((step) => step.at === null),
    ).toBe(true);
  });

  it("moves its current step along as the doctor accepts, the patient pays and the doctor ends it", () => {
    expect(read(accepted).slice(0, 3)).toEqual(["submitted:done", "accepted:current", "paid:next"]);
    // Paid and chatting at the same moment: the payment first.
    expect(read(chatting).slice(0, 5)).toEqual(["submitted:done", "accepted:done", "paid:done", "chatting:current", "summary_ready:next"]);
    expect(read(ended)).toEqual([
      "submitted:done",
      "accepted:done",
      "paid:done",
      "chatting:done",
      "summary_ready:current",
      "confirm_or_dispute:next",
      "release_or_refund:next",
      "rated:next",
    ]);
  });

  it("orders what happened by its time: a rating before the confirmation comes first", () => {
    const rated = { ...ended, ratedAt: at(45) };
    expect(read(rated).slice(4)).toEqual(["summary_ready:done", "rated:current", "confirm_or_dispute:next", "release_or_refund:next"]);
    const confirmed = { ...rated, confirmedAt: at(60), releasedAt: at(60) };
    expect(read(confirmed).slice(4)).toEqual(["summary_ready:done", "rated:done", "confirmed:done", "released:current"]);
    expect(consultationTimeline(confirmed).at(-1)!.at).toEqual(at(60));
    expect(timelineGoesOn(consultationTimeline(confirmed))).toBe(false);
  });

  it("leaves out the confirmation once the schedule released the payment without it", () => {
    const released = { ...ended, releasedAt: at(40 + 72 * 60) };
    expect(read(released).slice(4)).toEqual(["summary_ready:done", "released:current", "rated:next"]);
  });

  it("follows a dispute to a refund on its way, then settled; a part refund shows the release too", () => {
    const disputed = { ...ended, ratedAt: at(45), disputedAt: at(24 * 60) };
    expect(read(disputed)[5]).toBe("rated:done");
    expect(read(disputed).slice(6)).toEqual(["disputed:current", "release_or_refund:next"]);
    const refunding = { ...disputed, refund: { startedAt: at(48 * 60), settledAt: null } };
    expect(read(refunding).slice(6)).toEqual(["disputed:done", "refund_started:current", "refunded:next"]);
    expect(timelineGoesOn(consultationTimeline(refunding))).toBe(true);
    const partRefunded = { ...refunding, releasedAt: at(48 * 60), refund: { startedAt: at(48 * 60), settledAt: at(48 * 60 + 2) } };
    expect(read(partRefunded).slice(6)).toEqual(["disputed:done", "released:done", "refunded:current"]);
    expect(timelineGoesOn(consultationTimeline(partRefunded))).toBe(false);
  });

  it("ends a declined or withdrawn request there, with nothing to come", () => {
    const declined = { ...submitted, status: "cancelled" as const, cancelledAt: at(3), declined: true };
    expect(read(declined)).toEqual(["submitted:done", "declined:current"]);
    expect(timelineGoesOn(consultationTimeline(declined))).toBe(false);
    // Accepted once, its payment window closed (the acceptance is cleared), then withdrawn.
    expect(read({ ...submitted, status: "cancelled", cancelledAt: at(17) })).toEqual(["submitted:done", "withdrawn:current"]);
  });

  it("ends a consultation cancelled after payment with its refund", () => {
    const cancelled = { ...chatting, status: "cancelled" as const, cancelledAt: at(90) };
    expect(read(cancelled).slice(3)).toEqual(["chatting:done", "cancelled:current", "refunded:next"]);
    const refunded = { ...cancelled, refund: { startedAt: at(90), settledAt: at(95) } };
    expect(read(refunded).slice(3)).toEqual(["chatting:done", "cancelled:done", "refunded:current"]);
    expect(timelineGoesOn(consultationTimeline(refunded))).toBe(false);
  });

  it("asks only for the rating of an ended consultation that was never paid through escrow", () => {
    const unpaid = { ...ended, paidAt: null };
    expect(read(unpaid).slice(-2)).toEqual(["summary_ready:current", "rated:next"]);
  });
});

describe("the consultation a patient's dashboard follows", () => {
  it("is the newest one under way, else the newest waiting for a doctor, else the newest", () => {
    const rows = (...statuses: TimelineFacts["status"][]) => statuses.map((status, index) => ({ id: index, status }));
    expect(consultationToFollow(rows("completed", "pending", "in_progress", "accepted_awaiting_payment"))?.id).toBe(2);
    expect(consultationToFollow(rows("cancelled", "pending", "pending"))?.id).toBe(1);
    expect(consultationToFollow(rows("cancelled", "completed"))?.id).toBe(0);
    expect(consultationToFollow([])).toBeNull();
  });
});
