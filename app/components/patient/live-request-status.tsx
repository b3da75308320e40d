import { useConsultationStatus } from "~/components/realtime/use-consultation-status";
import type { ConsultationStatus } from "~/domain/consultation-status";

import { type Decline, RequestStatusPanel } from "./request-status-panel";

/** The thank-you step's live panel: its realtime code loads with that step alone. */
export function LiveRequestStatus({
  consultationId,
  initialStatus,
  initialDecline,
}: {
  consultationId: string;
  initialStatus: ConsultationStatus;
  initialDecline: Decline | null;
}) {
  const live = useConsultationStatus(consultationId, initialStatus);
  return (
    <RequestStatusPanel
      consultationId={consultationId}
      status={live.status}
      decline={live.decline ?? initialDecline}
      goToPaymentWhenFound={initialStatus === "pending"}
    />
  );
}
