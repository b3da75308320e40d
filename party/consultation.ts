// ConsultationRoom: one per consultation (named by its id). It holds the payment deadline as a wake-up
// of its alarm, which survives restarts, and tells both participants when the consultation's status
// moves; each connection first receives the current status, so a page that reconnects catches up. A
// socket lives no longer than its session (session-bound-room.ts).
// Chat messages arrive with the chat issue and live in this room's SQLite storage.
import { eq } from "drizzle-orm";
import type { Connection, WSMessage } from "partyserver";

import { consultations } from "~/db/schema";
import { takesPartIn } from "~/domain/consultation-access";
import type { ConsultationStatus, DeclineReason } from "~/domain/consultation-status";
import { type ConsultationRoomEvent, ConsultationRoomInbound, parseMessage, ROOMS } from "~/realtime/protocol";
import { expirePayment } from "~/server/consultations/expire-payment.server";

import { SessionBoundRoom } from "./session-bound-room";

const PAYMENT_WAKE_UP = "payment";

export class ConsultationRoom extends SessionBoundRoom {
  protected readonly roomClass = ROOMS.consultation.className;

  protected override async welcome(connection: Connection): Promise<void> {
    const consultation = await this.db.query.consultations.findFirst({
      columns: { status: true, declineReason: true, declineNote: true },
      where: eq(consultations.id, this.name),
    });
    if (!consultation) return;
    connection.send(JSON.stringify(statusEventOf(this.name, consultation)));
  }

  /** Only its patient and its doctor of the moment listen (a doctor cleared at payment expiry no longer does). */
  protected override async mayListen(): Promise<(userId: string) => boolean> {
    const consultation = await this.db.query.consultations.findFirst({
      columns: { patientId: true, doctorId: true },
      where: eq(consultations.id, this.name),
    });
    return (userId) => consultation !== undefined && takesPartIn(userId, consultation);
  }

  /** Participants only listen here until the chat arrives: the protocol has no message for them yet. */
  override onMessage(_connection: Connection, message: WSMessage): void {
    parseMessage(ConsultationRoomInbound, message);
  }

  /** Arms (or moves) the wake-up that ends the payment window at `deadline`. */
  async armPaymentDeadline(deadline: Date): Promise<void> {
    await this.wakeUpAt(PAYMENT_WAKE_UP, deadline);
  }

  /** Paid: the countdown stops, and both participants hear it (the doctor's page says "Payment Received"). */
  async paymentConfirmed(): Promise<void> {
    await this.wakeUpAt(PAYMENT_WAKE_UP, null);
    await this.announce({ type: "status", consultationId: this.name, status: "in_progress", reason: "paid" });
  }

  async paymentDeadline(): Promise<Date | null> {
    return this.wakeUpTime(PAYMENT_WAKE_UP);
  }

  // Expiring twice is harmless: the second run finds nothing to expire. D1 decides, not the alarm's time
  // (nor whether a wake-up was stored: an alarm armed by an older version carries none).
  protected override async onWakeUp(): Promise<void> {
    const outcome = await expirePayment(this.env, this.name, new Date(), (event) => this.announce(event));
    await this.wakeUpAt(PAYMENT_WAKE_UP, outcome.kind === "not_yet" ? outcome.deadline : null);
  }

  async announce(event: ConsultationRoomEvent): Promise<void> {
    await this.sendToLive(JSON.stringify(event));
  }
}

/** Where a consultation stands, as a page that (re)connects must hear it: a cancelled one says why. */
function statusEventOf(
  consultationId: string,
  { status, declineReason, declineNote }: { status: ConsultationStatus; declineReason: DeclineReason | null; declineNote: string | null },
): ConsultationRoomEvent {
  if (status !== "cancelled") return { type: "status", consultationId, status };
  return declineReason
    ? { type: "status", consultationId, status, reason: "declined", decline: { reason: declineReason, note: declineNote } }
    : { type: "status", consultationId, status, reason: "withdrawn" };
}
