// The realtime protocol, shared by the browser and the rooms: which rooms there are, how their
// sockets close (realtime/rooms), and every message that crosses them, in both directions, as zod (mini)
// schemas. Hooks (app/components/realtime) and rooms (party/) import only from here, except the rating
// page's bare ear (timeline-news), which needs the rooms' names alone; a message that does not parse is
// dropped. Written with `zod/mini`: this ships to the browser.
import { z } from "zod/mini";

import { CHAT_REFUSALS, CHAT_SENDER_ROLES } from "~/domain/chat-message";
import { CONSULTATION_STATUSES, DECLINE_REASONS, PRIORITIES, PRIORITY_RANK } from "~/domain/consultation-status";

export { ROOM_CLOSE_CODES, ROOMS } from "./rooms";

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
export type ConsultationStatusEvent = z.infer<typeof ConsultationStatusEvent>;

/**
 * One message of a consultation's chat; ids grow, so they order it. Its sender is named by their role
 * (there is one of each), so people's ids stay on the server.
 */
export const ChatMessage = z.object({
  id: z.int(),
  senderRole: z.enum(CHAT_SENDER_ROLES),
  /** The words of a text ("" for a photo). */
  text: z.string(),
  /** A photo's file, shown through /files/:fileId; null for a text. */
  fileId: z.nullable(z.string()),
  /** When the room stored it (ms since the epoch). */
  sentAt: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ConsultationRoomEvent = z.discriminatedUnion("type", [
  ConsultationStatusEvent,
  /**
   * A step of its timeline happened that moves no status (a dispute, the payment released or refunded,
   * the rating): pages that show the timeline read it again from the server.
   */
  z.object({ type: z.literal("timeline"), consultationId: z.string() }),
  /** The chat's messages: all of them on every connection; those after its `afterId` in answer to `catch_up`. */
  z.object({ type: z.literal("history"), messages: z.array(ChatMessage) }),
  /** A new message, to both people; `clientId` is the sender's own id for it, so their page knows it arrived. */
  z.object({ type: z.literal("message"), message: ChatMessage, clientId: z.nullable(z.string()) }),
  /** Who of the two is connected now; sent whenever someone comes or goes. */
  z.object({ type: z.literal("presence"), online: z.array(z.enum(CHAT_SENDER_ROLES)) }),
  /** To the sender alone: their message was not taken, and why. */
  z.object({ type: z.literal("send_refused"), clientId: z.string(), reason: z.enum(CHAT_REFUSALS) }),
]);
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
  /** A follow-up: the earlier consultation it continues, told only to the doctor that consultation was with. */
  followUpOf: z.optional(z.string()),
  /** The intake's one-line triage summary in each language ("" for a request from before the intake). */
  triage: z.object({ en: z.string(), am: z.string() }),
});
export type RequestSummary = z.infer<typeof RequestSummary>;

export const LobbyEvent = z.discriminatedUnion("type", [
  /** Sent on every (re)connection: the whole queue, so a page never misses what happened meanwhile. */
  z.object({ type: z.literal("queue"), requests: z.array(RequestSummary) }),
  z.object({ type: z.literal("request_added"), request: RequestSummary }),
  z.object({ type: z.literal("request_removed"), id: z.string() }),
]);
export type LobbyEvent = z.infer<typeof LobbyEvent>;

// Browsers → rooms. Doctors only listen in the lobby: anything they send is dropped.
export const LobbyInbound = z.never();

/** What a patient or doctor sends in a consultation room: a text (long ones are refused, not dropped), or a catch-up. */
export const ConsultationRoomInbound = z.discriminatedUnion("type", [
  // (No `.check()` here: only the rooms read these, and plain schema calls leave the browser's bundle.)
  /** `clientId`: the page's own id for its message, echoed back when the room has it. */
  z.object({ type: z.literal("send"), clientId: z.uuid(), text: z.string() }),
  /** After a reconnection: the messages after the last one the page has (its id; 0 for all). */
  z.object({ type: z.literal("catch_up"), afterId: z.int() }),
]);
export type ConsultationRoomInbound = z.infer<typeof ConsultationRoomInbound>;

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
