// ConsultationRoom: one per consultation (named by its id). It holds the payment deadline as an alarm,
// which survives restarts, and tells both participants when the consultation's status moves.
// Chat messages arrive with the chat issue and live in this room's SQLite storage.
import { Server } from "partyserver";
import type { ConsultationRoomEvent } from "~/domain/room-events";
import { createDatabase } from "~/server/db/client.server";
import { expireUnpaidConsultation } from "~/server/payment-deadline.server";

export class ConsultationRoom extends Server<Env> {
  static override options = { hibernate: true };

  /** Arms (or moves) the alarm that ends the payment window at `deadline`. */
  async armPaymentDeadline(deadline: Date): Promise<void> {
    await this.ctx.storage.setAlarm(deadline.getTime());
  }

  async paymentDeadline(): Promise<Date | null> {
    const alarmAt = await this.ctx.storage.getAlarm();
    return alarmAt === null ? null : new Date(alarmAt);
  }

  // Alarms are at-least-once: expiring twice is harmless, the second finds nothing to expire.
  override async onAlarm(): Promise<void> {
    const outcome = await expireUnpaidConsultation(createDatabase(this.env.DB), this.name, new Date());
    if (outcome.kind === "not_yet") {
      await this.ctx.storage.setAlarm(outcome.deadline.getTime());
    } else if (outcome.kind === "expired") {
      this.announce({ type: "status", consultationId: this.name, status: "pending", reason: "payment_expired" });
    }
  }

  announce(event: ConsultationRoomEvent): void {
    this.broadcast(JSON.stringify(event));
  }
}
