// Messages the rooms send to browsers. Both sides parse them with these schemas; a message that does
// not parse is dropped. Written with `zod/mini`: these ship to the browser.
import { z } from "zod/mini";

import { CONSULTATION_STATUSES, PRIORITIES, PRIORITY_RANK } from "./consultation-status";

/** Close codes rooms use; the browser reads them to know why its socket ended. */
export const ROOM_CLOSE_CODES = {
  /** The session that opened the socket has ended (signed out, expired, deactivated…): do not reconnect. */
  sessionEnded: 4001,
  /** The person no longer takes part (a doctor whose accepted request went back to the queue). */
  noLongerParticipant: 4003,
} as const;

const ConsultationStatusEvent = z.object({
  type: z.literal("status"),
  consultationId: z.string(),
  status: z.enum(CONSULTATION_STATUSES),
  /** Why the status moved, when the page should say so (e.g. "Payment Time Expired"). */
  reason: z.optional(z.enum(["payment_expired"])),
});

export const ConsultationRoomEvent = z.discriminatedUnion("type", [ConsultationStatusEvent]);
export type ConsultationRoomEvent = z.infer<typeof ConsultationRoomEvent>;

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

/** The doctors' queue order: most pressing priority first, then the longest waiting. */
export function byQueueOrder(a: RequestSummary, b: RequestSummary): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.waitingSince - b.waitingSince;
}
