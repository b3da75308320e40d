import type { ConsultationStatus } from "~/domain/consultation-status";

import { useConsultationRoom } from "./use-consultation-room";

/**
 * The consultation's status as its room reports it, live (and why it moved, when the page should say
 * so), for pages that only listen (the request's thank-you step).
 */
export function useConsultationStatus(consultationId: string, initial: ConsultationStatus, { enabled = true } = {}) {
  const { status, reason, decline } = useConsultationRoom(consultationId, initial, { enabled });
  return { status, reason, decline };
}
