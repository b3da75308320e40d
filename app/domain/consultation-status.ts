// The consultation state machine: the only place that knows which move is allowed, who may make it
// and what it sets. Actions, rooms and jobs ask `planTransition` first and apply its `changes` with a
// conditional update on `from`, so a refused or raced move changes nothing.

// With its extension: the demo seed runs this module under Node as it is.
import { PAYMENT_WINDOW_MS } from "./constants.ts";
import { isReservedForAnother, type Reservation } from "./reservations.ts";
import type { Role } from "./roles";

export const CONSULTATION_STATUSES = [
  "awaiting_assets",
  "pending",
  "accepted_awaiting_payment",
  "in_progress",
  "completed",
  "cancelled",
] as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUSES)[number];

// The status groups every screen and query means by these words, said once.
/** Submitted: everything but a draft still gathering its photos. */
export const SUBMITTED_STATUSES = CONSULTATION_STATUSES.filter((status) => status !== "awaiting_assets");
/** Active: a doctor has it (accepted, awaiting payment or under way) and has not ended it. */
export const ACTIVE_STATUSES = ["accepted_awaiting_payment", "in_progress"] as const satisfies readonly ConsultationStatus[];
/** Open: submitted and not yet over (waiting for a doctor, or active). */
export const OPEN_STATUSES = ["pending", ...ACTIVE_STATUSES] as const satisfies readonly ConsultationStatus[];
/** Taken by a doctor at some point and not cancelled: active or completed. */
export const WITH_DOCTOR_STATUSES = [...ACTIVE_STATUSES, "completed"] as const satisfies readonly ConsultationStatus[];

export const isActiveStatus = (status: ConsultationStatus) => (ACTIVE_STATUSES as readonly ConsultationStatus[]).includes(status);
export const isOpenStatus = (status: ConsultationStatus) => (OPEN_STATUSES as readonly ConsultationStatus[]).includes(status);

export const PRIORITIES = ["normal", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = "normal";

/** Why a doctor declines a request; the patient is told which, and `other` comes with the doctor's words. */
export const DECLINE_REASONS = ["in_person", "not_skin", "photos_unclear", "other"] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];
/** A doctor's own words for `other`: enough for a sentence or two. */
export const MAX_DECLINE_NOTE_CHARS = 500;

/** Doctors' queues sort by priority (most pressing first), then by waiting time. */
export const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, normal: 2 };

export type ConsultationMove =
  "submit" | "accept" | "decline" | "withdraw" | "confirmPayment" | "expirePayment" | "complete" | "cancelAfterPayment";

/**
 * How a consultation comes to be, the first move of all: a draft that gathers its photos first, or a
 * request written without photos, which goes straight to the doctors. Only the patient makes either.
 */
const CONSULTATION_CREATIONS = { draft: "awaiting_assets", request: "pending" } as const satisfies Record<string, ConsultationStatus>;
export type ConsultationCreation = keyof typeof CONSULTATION_CREATIONS;

/** Who asks for a move: a signed-in user in a role, or the system (payment provider, alarm). */
export type Actor = { kind: "user"; userId: string; role: Role } | { kind: "system" };

/** Who may make a move. */
type MoveAuthority = "owning-patient" | "any-doctor" | "assigned-doctor" | "admin" | "system";

const MOVES: Record<ConsultationMove, { from: ConsultationStatus; to: ConsultationStatus; by: MoveAuthority }> = {
  // The patient's final submit, once every photo is stored.
  submit: { from: "awaiting_assets", to: "pending", by: "owning-patient" },
  accept: { from: "pending", to: "accepted_awaiting_payment", by: "any-doctor" },
  decline: { from: "pending", to: "cancelled", by: "any-doctor" },
  withdraw: { from: "pending", to: "cancelled", by: "owning-patient" },
  // A verified payment; the provider may repeat itself, the move happens once.
  confirmPayment: { from: "accepted_awaiting_payment", to: "in_progress", by: "system" },
  // The payment window's alarm: the doctor is cleared and the request goes back to the queue.
  expirePayment: { from: "accepted_awaiting_payment", to: "pending", by: "system" },
  complete: { from: "in_progress", to: "completed", by: "assigned-doctor" },
  // A paid consultation its doctor cannot finish (deactivated, gone): an admin ends it, and it is refunded.
  cancelAfterPayment: { from: "in_progress", to: "cancelled", by: "admin" },
};

export interface ConsultationFacts extends Partial<Reservation> {
  status: ConsultationStatus;
  patientId: string;
  doctorId: string | null;
}

/** The columns a move writes besides `status`. `null` clears a column. */
interface ConsultationChanges {
  status: ConsultationStatus;
  doctorId?: string | null;
  acceptedAt?: Date | null;
  paymentDeadlineAt?: Date | null;
  startedAt?: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  updatedAt: Date;
}

/** `reserved`: a waiting follow-up is kept for its own doctor a while longer; other doctors may not decide on it yet. */
export type TransitionRefusal = "wrong_status" | "not_permitted" | "reserved";

export type TransitionPlan =
  | { ok: true; move: ConsultationMove; from: ConsultationStatus; to: ConsultationStatus; changes: ConsultationChanges }
  | { ok: false; move: ConsultationMove; refusal: TransitionRefusal };

function isPermitted(by: MoveAuthority, facts: ConsultationFacts, actor: Actor): boolean {
  if (by === "system") return actor.kind === "system";
  if (actor.kind !== "user") return false;
  switch (by) {
    case "owning-patient":
      return actor.role === "patient" && actor.userId === facts.patientId;
    case "any-doctor":
      return actor.role === "doctor";
    case "assigned-doctor":
      return actor.role === "doctor" && actor.userId === facts.doctorId;
    case "admin":
      return actor.role === "admin";
  }
}

/** Rules a deployment may set; tests shorten the payment window to watch it close. */
export interface TransitionRules {
  paymentWindowMs: number;
}
const DEFAULT_RULES: TransitionRules = { paymentWindowMs: PAYMENT_WINDOW_MS };

function changesFor(
  move: ConsultationMove,
  actor: Actor,
  now: Date,
  rules: TransitionRules,
): Omit<ConsultationChanges, "status" | "updatedAt"> {
  switch (move) {
    case "accept":
      return {
        doctorId: actor.kind === "user" ? actor.userId : null,
        acceptedAt: now,
        paymentDeadlineAt: new Date(now.getTime() + rules.paymentWindowMs),
      };
    case "expirePayment":
      return { doctorId: null, acceptedAt: null, paymentDeadlineAt: null };
    case "confirmPayment":
      return { startedAt: now, paymentDeadlineAt: null };
    case "complete":
      return { completedAt: now };
    case "decline":
    case "withdraw":
    case "cancelAfterPayment":
      return { cancelledAt: now };
    case "submit":
      return {};
  }
}

/**
 * Plans `move` on a consultation for `actor` at `now`. Permission is checked before status so that a
 * stranger learns nothing about a consultation's state from the refusal.
 */
export function planTransition(
  facts: ConsultationFacts,
  move: ConsultationMove,
  actor: Actor,
  now: Date,
  rules: TransitionRules = DEFAULT_RULES,
): TransitionPlan {
  const rule = MOVES[move];
  if (!isPermitted(rule.by, facts, actor)) return { ok: false, move, refusal: "not_permitted" };
  if (facts.status !== rule.from) return { ok: false, move, refusal: "wrong_status" };
  if (rule.by === "any-doctor" && actor.kind === "user" && isReservedForAnother(reservationOf(facts), actor.userId, now))
    return { ok: false, move, refusal: "reserved" };
  return {
    ok: true,
    move,
    from: rule.from,
    to: rule.to,
    changes: { status: rule.to, ...changesFor(move, actor, now, rules), updatedAt: now },
  };
}

const reservationOf = (facts: ConsultationFacts): Reservation => ({
  reservedForDoctorId: facts.reservedForDoctorId ?? null,
  reservedUntil: facts.reservedUntil ?? null,
});

export type CreationPlan =
  | { ok: true; creation: ConsultationCreation; changes: { status: ConsultationStatus; createdAt: Date; updatedAt: Date } }
  | { ok: false; creation: ConsultationCreation; refusal: "not_permitted" };

/** Plans the creation of `patientId`'s consultation: only that patient may make it. */
export function planCreation(creation: ConsultationCreation, patientId: string, actor: Actor, now: Date): CreationPlan {
  const permitted = isPermitted("owning-patient", { status: CONSULTATION_CREATIONS[creation], patientId, doctorId: null }, actor);
  if (!permitted) return { ok: false, creation, refusal: "not_permitted" };
  return { ok: true, creation, changes: { status: CONSULTATION_CREATIONS[creation], createdAt: now, updatedAt: now } };
}

export function isConsultationStatus(value: unknown): value is ConsultationStatus {
  return typeof value === "string" && (CONSULTATION_STATUSES as readonly string[]).includes(value);
}

export function isPriority(value: unknown): value is Priority {
  return typeof value === "string" && (PRIORITIES as readonly string[]).includes(value);
}
