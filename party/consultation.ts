// ConsultationRoom: one per consultation (named by its id). It holds the payment deadline as an alarm,
// which survives restarts, and tells both participants when the consultation's status moves; each
// connection first receives the current status, so a page that reconnects catches up.
// Chat messages arrive with the chat issue and live in this room's SQLite storage.
import { eq } from "drizzle-orm";
import { Server, type Connection } from "partyserver";
import { consultations } from "~/db/schema";
import type { ConsultationRoomEvent } from "~/domain/room-events";
import { createDatabase } from "~/server/db/client.server";
import { requestSummary } from "~/server/db/requests.server";
import { expireUnpaidConsultation } from "~/server/payment-deadline.server";
import { announceRequest } from "~/server/rooms.server";

export class ConsultationRoom extends Server<Env> {
  static override options = { hibernate: true };

  override async onConnect(connection: Connection): Promise<void> {
    const consultation = await createDatabase(this.env.DB).query.consultations.findFirst({
      columns: { status: true },
      where: eq(consultations.id, this.name),
    });
    if (!consultation) return;
    connection.send(JSON.stringify({ type: "status", consultationId: this.name, status: consultation.status } satisfies ConsultationRoomEvent));
  }

  /** Participants only listen here until the chat arrives; anything they send is ignored. */
  override onMessage(_connection: Connection): void {}

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
    const db = createDatabase(this.env.DB);
    const outcome = await expireUnpaidConsultation(db, this.name, new Date());
    if (outcome.kind === "not_yet") {
      await this.ctx.storage.setAlarm(outcome.deadline.getTime());
    } else if (outcome.kind === "expired") {
      this.announce({ type: "status", consultationId: this.name, status: "pending", reason: "payment_expired" });
      const summary = await requestSummary(db, this.name);
      if (summary) await announceRequest(this.env, summary);
    }
  }

  announce(event: ConsultationRoomEvent): void {
    this.broadcast(JSON.stringify(event));
  }
}
