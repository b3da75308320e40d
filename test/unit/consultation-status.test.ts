import { describe, expect, it } from "vitest";

import { PAYMENT_WINDOW_MS } from "~/domain/constants";
import {
  type Actor,
  CONSULTATION_STATUSES,
  type ConsultationFacts,
  type ConsultationMove,
  type ConsultationStatus,
  OPEN_STATUSES,
  planCreation,
  planTransition,
  SUBMITTED_STATUSES,
} from "~/domain/consultation-status";

// Every move, listed here so the type fails to check if one is added without being tested.
const CONSULTATION_MOVES = Object.keys({
  submit: true,
  accept: true,
  decline: true,
  withdraw: true,
  confirmPayment: true,
  expirePayment: true,
  complete: true,
  cancelAfterPayment: true,
} satisfies Record<ConsultationMove, true>) as ConsultationMove[];

const PATIENT = "patient-1";
const OTHER_PATIENT = "patient-2";
const DOCTOR = "doctor-1";
const OTHER_DOCTOR = "doctor-2";
const now = new Date("2026-11-21T10:00:00Z");

const actors = {
  owningPatient: { kind: "user", userId: PATIENT, role: "patient" },
  otherPatient: { kind: "user", userId: OTHER_PATIENT, role: "patient" },
  assignedDoctor: { kind: "user", userId: DOCTOR, role: "doctor" },
  otherDoctor: { kind: "user", userId: OTHER_DOCTOR, role: "doctor" },
  admin: { kind: "user", userId: "admin-1", role: "admin" },
  system: { kind: "system" },
} satisfies Record<string, Actor>;
type ActorName = keyof typeof actors;

/** A consultation in `status`; from acceptance on, DOCTOR is assigned. */
function consultationIn(status: ConsultationStatus): ConsultationFacts {
  const hasDoctor = ["accepted_awaiting_payment", "in_progress", "completed"].includes(status);
  return { status, patientId: PATIENT, doctorId: hasDoctor ? DOCTOR : null };
}

// Written out by hand from spec/decisions.md: every allowed (status, move, actor) and where it leads.
const ALLOWED: Array<[ConsultationStatus, ConsultationMove, ActorName, ConsultationStatus]> = [
  ["awaiting_assets", "submit", "owningPatient", "pending"],
  ["pending", "accept", "assignedDoctor", "accepted_awaiting_payment"],
  ["pending", "accept", "otherDoctor", "accepted_awaiting_payment"],
  ["pending", "decline", "assignedDoctor", "cancelled"],
  ["pending", "decline", "otherDoctor", "cancelled"],
  ["pending", "withdraw", "owningPatient", "cancelled"],
  ["accepted_awaiting_payment", "confirmPayment", "system", "in_progress"],
  ["accepted_awaiting_payment", "expirePayment", "system", "pending"],
  ["in_progress", "complete", "assignedDoctor", "completed"],
  // Issue 16: a paid consultation its doctor cannot finish is ended by an admin, and refunded.
  ["in_progress", "cancelAfterPayment", "admin", "cancelled"],
];

describe("the consultation state machine", () => {
  it.each(ALLOWED)("from %s, %s by %s leads to %s", (status, move, actorName, to) => {
    const plan = planTransition(consultationIn(status), move, actors[actorName], now);
    expect(plan).toMatchObject({ ok: true, from: status, to, changes: { status: to, updatedAt: now } });
  });

  const refused = CONSULTATION_STATUSES.flatMap((status) =>
    CONSULTATION_MOVES.flatMap((move) =>
      (Object.keys(actors) as ActorName[])
        .filter((actorName) => !ALLOWED.some(([s, m, a]) => s === status && m === move && a === actorName))
        .map((actorName) => [status, move, actorName] as const),
    ),
  );

  it("refuses every other combination of status, move and actor", () => {
    expect(refused.length).toBe(CONSULTATION_STATUSES.length * CONSULTATION_MOVES.length * 6 - ALLOWED.length);
    for (const [status, move, actorName] of refused) {
      const plan = planTransition(consultationIn(status), move, actors[actorName], now);
      expect(plan.ok, `${move} from ${status} by ${actorName}`).toBe(false);
    }
  });

  it("says a move was refused for the status when the actor could otherwise make it", () => {
    expect(planTransition(consultationIn("accepted_awaiting_payment"), "accept", actors.otherDoctor, now)).toEqual({
      ok: false,
      move: "accept",
      refusal: "wrong_status",
    });
  });

  it("says not_permitted to someone who may never make the move, whatever the status", () => {
    expect(planTransition(consultationIn("pending"), "withdraw", actors.otherPatient, now)).toMatchObject({ refusal: "not_permitted" });
    expect(planTransition(consultationIn("completed"), "withdraw", actors.otherPatient, now)).toMatchObject({ refusal: "not_permitted" });
    expect(planTransition(consultationIn("pending"), "accept", actors.admin, now)).toMatchObject({ refusal: "not_permitted" });
  });

  it("accepting names the doctor and sets a payment deadline one window from now", () => {
    const plan = planTransition(consultationIn("pending"), "accept", actors.otherDoctor, now);
    expect(plan.ok && plan.changes).toEqual({
      status: "accepted_awaiting_payment",
      doctorId: OTHER_DOCTOR,
      acceptedAt: now,
      paymentDeadlineAt: new Date(now.getTime() + PAYMENT_WINDOW_MS),
      updatedAt: now,
    });
    expect(PAYMENT_WINDOW_MS).toBe(15 * 60_000);
  });

  it("an expired payment window clears the doctor and the deadline", () => {
    const plan = planTransition(consultationIn("accepted_awaiting_payment"), "expirePayment", actors.system, now);
    expect(plan.ok && plan.changes).toEqual({
      status: "pending",
      doctorId: null,
      acceptedAt: null,
      paymentDeadlineAt: null,
      updatedAt: now,
    });
  });

  it("payment starts the consultation and ends the deadline", () => {
    const plan = planTransition(consultationIn("accepted_awaiting_payment"), "confirmPayment", actors.system, now);
    expect(plan.ok && plan.changes).toEqual({ status: "in_progress", startedAt: now, paymentDeadlineAt: null, updatedAt: now });
  });

  it("completing and cancelling stamp their time", () => {
    const completed = planTransition(consultationIn("in_progress"), "complete", actors.assignedDoctor, now);
    expect(completed.ok && completed.changes.completedAt).toEqual(now);
    const declined = planTransition(consultationIn("pending"), "decline", actors.otherDoctor, now);
    expect(declined.ok && declined.changes.cancelledAt).toEqual(now);
  });

  it("completed and cancelled are final: no move leaves them, whoever asks", () => {
    for (const status of ["completed", "cancelled"] as const)
      for (const move of CONSULTATION_MOVES)
        for (const actor of Object.values(actors)) expect(planTransition(consultationIn(status), move, actor, now).ok).toBe(false);
  });
});

describe("creating a consultation", () => {
  it("is the patient's own first move: a draft waits for photos, a request without photos waits for a doctor", () => {
    expect(planCreation("draft", PATIENT, actors.owningPatient, now)).toEqual({
      ok: true,
      creation: "draft",
      changes: { status: "awaiting_assets", createdAt: now, updatedAt: now },
    });
    const request = planCreation("request", PATIENT, actors.owningPatient, now);
    expect(request.ok && request.changes.status).toBe("pending");
  });

  it("is refused to anyone else: another patient, a doctor, an admin, the system", () => {
    for (const actor of [actors.otherPatient, actors.assignedDoctor, actors.admin, actors.system])
      expect(planCreation("request", PATIENT, actor, now)).toEqual({ ok: false, creation: "request", refusal: "not_permitted" });
  });
});

describe("status groups", () => {
  it("open is waiting or active; submitted is everything but a draft", () => {
    expect([...OPEN_STATUSES].sort()).toEqual(["accepted_awaiting_payment", "in_progress", "pending"]);
    expect(SUBMITTED_STATUSES).not.toContain("awaiting_assets");
    expect(SUBMITTED_STATUSES).toHaveLength(CONSULTATION_STATUSES.length - 1);
  });
});
