// Messages the rooms send to browsers. Both sides parse them with these schemas; a message that does
// not parse is dropped.
import { z } from "zod";
import { CONSULTATION_STATUSES } from "./consultation-status";

export const ConsultationStatusEvent = z.object({
  type: z.literal("status"),
  consultationId: z.string(),
  status: z.enum(CONSULTATION_STATUSES),
  /** Why the status moved, when the page should say so (e.g. "Payment Time Expired"). */
  reason: z.enum(["payment_expired"]).optional(),
});
export type ConsultationStatusEvent = z.infer<typeof ConsultationStatusEvent>;

export const ConsultationRoomEvent = z.discriminatedUnion("type", [ConsultationStatusEvent]);
export type ConsultationRoomEvent = z.infer<typeof ConsultationRoomEvent>;
