// The realtime protocol, shared by the browser and the rooms: which rooms there are, how their
// sockets close, and every message that crosses them, in both directions, as zod (mini) schemas.
// Hooks (app/components/realtime) and rooms (party/) import only from here; a message that does not
// parse is dropped. Written with `zod/mini`: this ships to the browser.
import { z } from "zod/mini";

import { CONSULTATION_STATUSES, DECLINE_REASONS, PRIORITIES, PRIORITY_RANK } from "~/domain/consultation-status";

/** The rooms: their party name in URLs (/parties/<party>/<name>) and their Durable Object class. */
export const ROOMS = {
  /** The one room active doctors join for waiting requests. */
  lobby: { party: "doctors-lobby", className: "DoctorsLobby", name: "main" },
  /** One per consultation, named by its id: its patient and its doctor. */
  consultation: { party: "consultation-room", className: "ConsultationRoom" },
} as const;

/** Close codes rooms use; the browser reads them to know why its socket ended. */
export const ROOM_CLOSE_CODES = {
  /** The session that opened the socket has ended (signed out, expired, deactivated…): do not reconnect. */
  sessionEnded: 4001,
  /** The person no longer takes part (a doctor whose accepted request went back to the queue). */
  noLongerParticipant: 4003,
} as const;

// Consultation room → its patient and doctor.

/** Why a status moved, when the page should say so. */
export const STATUS_REASONS = ["payment_expired", "declined", "withdrawn", "paid"] as const;

const ConsultationStatusEvent = z.object({
  type: z.literal("status"),
  consultationId: z.string(),
  status: z.enum(CONSULTATION_STATUSES),
  reason: z.optional(z.enum(STATUS_REASONS)),
  /** When a doctor declined: why, and their words for "other". */
  decline: z.optional(z.object({ reason: z.enum(DECLINE_REASONS), note: z.nullable(z.string()) })),
});

export const ConsultationRoomEvent = z.discriminatedUnion("type", [ConsultationStatusEvent]);
export type ConsultationRoomEvent = z.infer<typeof ConsultationRoomEvent>;

// Doctors' lobby → doctors.

/** What a doctor sees of a waiting request before opening it. */
export const RequestSummary = z.object({
  id: z.string(),
  title: z.string(),
  priority: z.enum(PRIORITIES),
  /** When the request started waiting for a doctor (ms since the epoch). */
  waitingSince: z.number(),
  patientFirstName: z.string(),
  photoCount: z.int().check(z.minimum(0)),
  /** The doctor code the patient asked for, if any; the page marks it when it is the reader's. */
  requestedDoctorCode: z.nullable(z.string()),
});
export type RequestSummary = z.infer<typeof RequestSummary>;

export const LobbyEvent = z.discriminatedUnion("type", [
  /** Sent on every (re)connection: the whole queue, so a page never misses what happened meanwhile. */
  z.object({ type: z.literal("queue"), requests: z.array(RequestSummary) }),
  z.object({ type: z.literal("request_added"), request: RequestSummary }),
  z.object({ type: z.literal("request_removed"), id: z.string() }),
]);
export type LobbyEvent = z.infer<typeof LobbyEvent>;

// Browsers → rooms. Nothing yet: both rooms only speak. (The chat will add the messages patients and
// doctors send; until then anything a browser sends is dropped.)
export const LobbyInbound = z.never();
export const ConsultationRoomInbound = z.never();

/** A socket message as `schema` describes it, or null when it is not JSON or does not match. */
export function parseMessage<Schema extends z.ZodMiniType>(schema: Schema, data: unknown): z.infer<Schema> | null {
  if (typeof data !== "string") return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The doctors' queue order: most pressing priority first, then the longest waiting. */
export function byQueueOrder(a: RequestSummary, b: RequestSummary): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.waitingSince - b.waitingSince;
}
