// In-app notifications: what a person is told happened while they were elsewhere. Each kind has its
// words (notifications.kinds.<kind>) and leads to the consultation it is about.

const NOTIFICATION_KINDS = [
  "consultation_accepted",
  "payment_received",
  "summary_ready",
  "new_message",
  "payment_late",
  "payment_duplicate",
  "payment_refunded",
  "dispute_opened",
  "dispute_answered",
  "dispute_resolved",
  "money_refunded",
  "payment_charged_back",
  "earnings_released",
  "payout_paid",
  "payout_failed",
  "payout_account_changed",
  "consultation_cancelled",
  "new_photos_due",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === "string" && (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

/** Where a notification about a consultation leads its reader. */
export function consultationLink(role: "patient" | "doctor", consultationId: string) {
  return `/${role}/consultation/${consultationId}`;
}
