// ConsultationRoom: one per consultation (named by its id). It holds the payment deadline as a wake-up
// of its alarm, which survives restarts, and tells both participants when the consultation's status
// moves; each connection first receives the current status, so a page that reconnects catches up. A
// socket lives no longer than its session (session-bound-room.ts).
// It also holds the consultation's chat (chat-log.ts): messages come from a participant's socket or
// from the server (a photo uploaded, a form sent without JavaScript), and both ways go through
// `take`, which checks the consultation before a message is stored. A socket's message may trust what
// D1 said up to 10 s ago (ADR 0042): every change tells the room right after its write, and a fresh
// read is started beside the messages, so a chat rarely waits for D1. Both people hear who of them is
// connected (presence).
import { eq } from "drizzle-orm";
import type { Connection, WSMessage } from "partyserver";

import { consultations } from "~/db/schema";
import { CHAT_PAGE_MESSAGES, chatSendRefusal, chatTextOf, hasChat, senderRoleIn } from "~/domain/chat";
import { CHAT_SENDER_ROLES, type ChatSenderRole } from "~/domain/chat-message";
import { chatRateCheck } from "~/domain/chat-rate";
import { takesPartIn } from "~/domain/consultation-access";
import type { ConsultationStatus, DeclineReason } from "~/domain/consultation-status";
import { consultationLink } from "~/domain/notifications";
import { type ChatMessage, type ConsultationRoomEvent, ConsultationRoomInbound, parseMessage, ROOMS } from "~/realtime/protocol";
import type { ChatDraft, ChatPostOutcome, RoomIdentity } from "~/realtime/room-contract";
import { expirePayment } from "~/server/consultations/expire-payment.server";
import { sessionChangeCountColumn } from "~/server/db/room-connections.server";
import { loadConfig } from "~/server/env.server";
import { deliverTidings, tellUnlessUnread } from "~/server/tidings.server";

import { ChatLog } from "./chat-log";
import { type Listeners, SessionBoundRoom } from "./session-bound-room";

const PAYMENT_WAKE_UP = "payment";
/**
 * How long a socket's message may trust what D1 said (ADR 0042). The room is told of every change right
 * after its write; this bounds a change whose news never came (a crash, a room that could not be reached).
 */
export const TRUSTED_READ_MS = 10_000;
/** Past this age, a socket's message starts a fresh read beside it (and does not wait for it). */
const REFRESH_AFTER_MS = 5_000;

export class ConsultationRoom extends SessionBoundRoom {
  protected readonly roomClass = ROOMS.consultation.className;
  private readonly chat = new ChatLog(this.ctx.storage.sql);
  /** When each person sent their messages of the last minute (the rate limit). */
  private readonly sentAtMs = new Map<string, number[]>();
  /**
   * Chat work runs one piece at a time, in the order it came: a message waits for D1 before it is
   * stored, and must not be overtaken by the next one (nor a newcomer's history by a message).
   */
  private chatTurn: Promise<unknown> = Promise.resolve();
  /** D1's last answer, and when its read started. */
  private lastRead: { read: ConsultationRead; startedAtMs: number } | undefined;
  /** Moves whenever the room is told something changed: a read started before that is not kept. */
  private toldCount = 0;
  private refreshing = false;

  override onStart(): void {
    this.chat.create();
  }

  protected override async welcome(connection: Connection<RoomIdentity>): Promise<void> {
    const consultation = await this.consultation();
    if (!consultation) return;
    connection.send(JSON.stringify(statusEventOf(this.name, consultation)));
    if (hasChat(consultation.status)) await this.inTurn(async () => connection.send(this.historyEvent(0)));
    await this.announcePresence();
  }

  /** Only its patient and its doctor of the moment listen (a doctor cleared at payment expiry no longer does). */
  protected override async listeners(): Promise<Listeners> {
    return listenersOf(await this.consultationRead());
  }

  /** A participant sends a text or asks for what they missed; anything that does not parse is dropped. */
  override async onMessage(connection: Connection<RoomIdentity>, message: WSMessage): Promise<void> {
    const event = parseMessage(ConsultationRoomInbound, message);
    if (!event || !connection.state) return;
    const { userId } = connection.state;
    if (event.type === "catch_up") {
      await this.inTurn(async () => {
        const listening = this.trustedRead().then(listenersOf);
        if ((await this.liveConnections([connection], listening)).length) connection.send(this.historyEvent(event.afterId));
      });
      return;
    }
    const outcome = await this.inTurn(() =>
      this.take(
        { senderId: userId, kind: "text", text: event.text, fileId: null },
        { from: connection, clientId: event.clientId, trusting: true },
      ),
    );
    if (outcome && !outcome.ok && outcome.reason !== "not_found") {
      connection.send(
        JSON.stringify({ type: "send_refused", clientId: event.clientId, reason: outcome.reason } satisfies ConsultationRoomEvent),
      );
    }
  }

  override async onClose(connection: Connection): Promise<void> {
    await super.onClose(connection);
    await this.announcePresence();
  }

  /** The server's way in: the same checks as a socket's message (a photo uploaded, a form sent without JavaScript). */
  async postMessage(draft: ChatDraft): Promise<ChatPostOutcome> {
    return this.inTurn(async () => (await this.take(draft, {}))!);
  }

  /** The newest `count` messages (and whether there are earlier ones) and who is connected, for a page rendered by the server. */
  async chatSnapshot(count: number): Promise<{ messages: ChatMessage[]; hasEarlier: boolean; online: ChatSenderRole[] }> {
    const [consultation, live] = await this.consultationAndLiveConnections();
    return { ...this.chat.latest(count), online: consultation ? onlineRoles(live, consultation) : [] };
  }

  /** Every message of the chat, oldest first (the patient's copy of their data). */
  async chatRecord(): Promise<ChatMessage[]> {
    return this.inTurn(async () => this.chat.all());
  }

  /** Removes the whole chat: the record's retention ended (docs/decisions/0037). Safe to run twice. */
  async forgetChat(): Promise<number> {
    return this.inTurn(async () => this.chat.forget());
  }

  /** Arms (or moves) the wake-up that ends the payment window at `deadline`. */
  async armPaymentDeadline(deadline: Date): Promise<void> {
    await this.wakeUpAt(PAYMENT_WAKE_UP, deadline);
  }

  /** Paid: the countdown stops, and both participants hear it (the doctor's page says "Payment Received"). */
  async paymentConfirmed(): Promise<void> {
    // At once, not only in `announce`: a message meanwhile reads D1 (paid) instead of the kept "awaiting".
    this.forgetLastRead();
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

  /** Tells both participants (a status moved: accepted, paid, completed…), as D1 has it now. */
  async announce(event: ConsultationRoomEvent): Promise<void> {
    this.forgetLastRead();
    await this.sendToLive(JSON.stringify(event));
  }

  override async endSessions(sessionIds: string[]): Promise<void> {
    this.forgetLastRead();
    await super.endSessions(sessionIds);
  }

  /**
   * Stores a message if its sender may send it now (as D1 says, or said a moment ago when `trusting`)
   * and it is a message at all, then gives it to both people. A socket whose session has ended is
   * closed and its message dropped (null).
   */
  private async take(
    draft: ChatDraft,
    { from, clientId = null, trusting = false }: { from?: Connection<RoomIdentity>; clientId?: string | null; trusting?: boolean },
  ): Promise<ChatPostOutcome | null> {
    const [consultation, live] = await this.consultationAndLiveConnections(trusting ? this.trustedRead() : this.consultationRead());
    if (from && !live.includes(from)) return null;
    if (!consultation) return { ok: false, reason: "not_found" };
    // Sent again (its echo was lost): the sender hears it arrived; nobody gets it twice.
    const earlier = clientId ? this.chat.sentBefore(draft.senderId, clientId) : null;
    if (earlier) {
      from?.send(JSON.stringify({ type: "message", message: earlier, clientId } satisfies ConsultationRoomEvent));
      return { ok: true, message: earlier };
    }
    const refusal = chatSendRefusal(consultation, draft.senderId);
    if (refusal) return { ok: false, reason: refusal };
    const checked = draft.kind === "text" ? chatTextOf(draft.text) : draft.fileId ? { ok: true as const, text: "" } : null;
    if (!checked?.ok) return { ok: false, reason: checked?.refusal ?? "empty" };
    // Each person's recent sends, held by the room: one instance serves each consultation.
    const now = new Date();
    const rate = chatRateCheck(this.sentAtMs.get(draft.senderId) ?? [], now.getTime());
    this.sentAtMs.set(draft.senderId, rate.recent);
    if (!rate.allowed) return { ok: false, reason: "too_fast" };
    rate.recent.push(now.getTime());
    const message = this.chat.append(
      {
        senderId: draft.senderId,
        senderRole: senderRoleIn(draft.senderId, consultation)!,
        kind: draft.kind,
        text: checked.text,
        fileId: draft.kind === "image" ? draft.fileId : null,
        clientId,
      },
      now,
    );
    const event = JSON.stringify({ type: "message", message, clientId } satisfies ConsultationRoomEvent);
    for (const connection of live) connection.send(event);
    await this.tellIfAway(consultation, message.senderRole, live);
    return { ok: true, message };
  }

  /** The other person, if they have no live socket here, finds "new message" in their notifications (once until read). */
  private async tellIfAway(
    consultation: { patientId: string; doctorId: string | null },
    senderRole: ChatSenderRole,
    live: Array<Connection<RoomIdentity>>,
  ): Promise<void> {
    const recipientRole = senderRole === "patient" ? "doctor" : "patient";
    const recipientId = recipientRole === "patient" ? consultation.patientId : consultation.doctorId;
    if (!recipientId || onlineRoles(live, consultation).includes(recipientRole)) return;
    const outgoing = await tellUnlessUnread(this.db, recipientId, {
      kind: "new_message",
      consultationId: this.name,
      link: consultationLink(recipientRole, this.name),
    });
    // Telegram's "new message" (if one was queued) goes now, beside the chat rather than in its turn; the job retries it.
    this.ctx.waitUntil(
      Promise.resolve()
        .then(() => deliverTidings(this.db, loadConfig(this.env), outgoing))
        .catch((error: unknown) =>
          console.error(JSON.stringify({ event: "background_task_failed", task: "telegram", error: String(error) })),
        ),
    );
  }

  private inTurn<Result>(work: () => Promise<Result>): Promise<Result> {
    const turn = this.chatTurn.then(work, work);
    this.chatTurn = turn.catch(() => undefined);
    return turn;
  }

  /** What a page missed since its last message; a page that has none gets the newest page (earlier ones are a link away). */
  private historyEvent(afterId: number): string {
    const messages = afterId > 0 ? this.chat.after(afterId) : this.chat.latest(CHAT_PAGE_MESSAGES).messages;
    return JSON.stringify({ type: "history", messages } satisfies ConsultationRoomEvent);
  }

  private async announcePresence(): Promise<void> {
    const [consultation, live] = await this.consultationAndLiveConnections();
    if (!consultation) return;
    const event = JSON.stringify({ type: "presence", online: onlineRoles(live, consultation) } satisfies ConsultationRoomEvent);
    for (const connection of live) connection.send(event);
  }

  /** The consultation as `reading` (D1 now, by default) has it, and the connections still live by it. */
  private async consultationAndLiveConnections(reading = this.consultationRead()) {
    const [{ consultation }, live] = await Promise.all([reading, this.liveConnections(undefined, reading.then(listenersOf))]);
    return [consultation, live] as const;
  }

  private async consultation() {
    return (await this.consultationRead()).consultation;
  }

  // Built once per room (drizzle would build the SQL again for every message), run for every message.
  private consultationQuery: ReturnType<ConsultationRoom["prepareConsultationQuery"]> | undefined;
  private prepareConsultationQuery() {
    return this.db
      .select({
        status: consultations.status,
        declineReason: consultations.declineReason,
        declineNote: consultations.declineNote,
        patientId: consultations.patientId,
        doctorId: consultations.doctorId,
        sessionChanges: sessionChangeCountColumn(),
      })
      .from(consultations)
      .where(eq(consultations.id, this.name))
      .prepare();
  }

  /**
   * The consultation as D1 has it now, with D1's count of session changes in the same query: a chat
   * message needs both, in one trip to D1. Kept for `trustedRead` unless the room was told of a change
   * while it was read (or a later read has answered already).
   */
  private async consultationRead(): Promise<ConsultationRead> {
    const toldCount = this.toldCount;
    const startedAtMs = Date.now();
    const [row] = await (this.consultationQuery ??= this.prepareConsultationQuery()).all();
    let read: ConsultationRead = { consultation: undefined, sessionChanges: null };
    if (row) {
      const { sessionChanges, ...consultation } = row;
      read = { consultation, sessionChanges };
    }
    if (toldCount === this.toldCount && startedAtMs >= (this.lastRead?.startedAtMs ?? 0)) this.lastRead = { read, startedAtMs };
    return read;
  }

  /**
   * What D1 said at most TRUSTED_READ_MS ago, for a socket's message; past REFRESH_AFTER_MS a fresh
   * read starts beside it, so the next message finds one without waiting. Read now when there is none.
   */
  private async trustedRead(): Promise<ConsultationRead> {
    const ageMs = this.lastRead ? Date.now() - this.lastRead.startedAtMs : Infinity;
    if (!this.lastRead || ageMs >= TRUSTED_READ_MS) return this.consultationRead();
    if (ageMs >= REFRESH_AFTER_MS && !this.refreshing) {
      this.refreshing = true;
      void this.consultationRead()
        .catch((error: unknown) => console.error(JSON.stringify({ event: "room_read_failed", room: this.name, error: String(error) })))
        .finally(() => (this.refreshing = false));
    }
    return this.lastRead.read;
  }

  /** The room was told of a change: nothing read before it is trusted. */
  private forgetLastRead(): void {
    this.toldCount += 1;
    this.lastRead = undefined;
  }
}

interface ConsultationRead {
  consultation:
    | {
        status: ConsultationStatus;
        declineReason: DeclineReason | null;
        declineNote: string | null;
        patientId: string;
        doctorId: string | null;
      }
    | undefined;
  sessionChanges: number | null;
}

/** Who may listen in the room of the consultation: its two people (nobody when it is gone). */
function listenersOf({ consultation, sessionChanges }: ConsultationRead): Listeners {
  return { mayListen: (userId: string) => consultation !== undefined && takesPartIn(userId, consultation), sessionChanges };
}

/** Which of the consultation's two people have a live socket here. */
function onlineRoles(
  live: Array<Connection<RoomIdentity>>,
  consultation: { patientId: string; doctorId: string | null },
): ChatSenderRole[] {
  const roles = new Set(live.map((connection) => connection.state && senderRoleIn(connection.state.userId, consultation)));
  return CHAT_SENDER_ROLES.filter((role) => roles.has(role));
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
