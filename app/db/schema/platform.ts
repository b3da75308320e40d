// The platform's own bookkeeping: the mail outbox, live room connections (and the count of session
// changes their rooms check against), and rate-limit attempts.
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

import { createdAt, id, oneOf } from "./columns.ts";

/** queued: waiting for its (next) attempt; sending: claimed by a sender until next_attempt_at; failed: given up. */
export const MAIL_STATUSES = ["queued", "sending", "sent", "failed"] as const;

export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("queued"),
    providerMessageId: text("provider_message_id"),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** Delivery attempts so far (each claim counts one). */
    attempts: integer("attempts").notNull().default(0),
    /** When a sender may next take it: due now when queued, or when a sender's claim lapses. */
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" })
      .notNull()
      .$defaultFn(() => new Date()),
    lastError: text("last_error"),
  },
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt),
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_to_idx").on(t.toEmail, t.createdAt),
    check("mail_outbox_status_valid", oneOf("status", MAIL_STATUSES)),
  ],
);

/**
 * Which rooms hold a live socket of which session, so that ending a session (sign-out, a password
 * change, a deactivation) can close its sockets at once. Rows come and go with the sockets; none
 * outlives its session (housekeeping removes any left behind).
 */
export const roomConnections = sqliteTable(
  "room_connections",
  {
    /** The room's Durable Object class ("DoctorsLobby", "ConsultationRoom") and its name. */
    roomClass: text("room_class").notNull(),
    roomName: text("room_name").notNull(),
    /** partyserver's id of the connection, unique within its room. */
    connectionId: text("connection_id").notNull(),
    sessionId: text("session_id").notNull(),
    connectedAt: integer("connected_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roomClass, t.roomName, t.connectionId] }),
    index("room_connections_session_idx").on(t.sessionId),
    index("room_connections_connected_at_idx").on(t.connectedAt),
  ],
);

/**
 * One row (id 1) counting the changes that can end a live session before its time: a session removed
 * or shortened, a doctor's standing changed. Triggers keep it (migrations/0016), whoever writes, so a
 * room that checked its sockets' sessions at this count need not check them again while it holds
 * (docs/decisions/0040).
 */
export const sessionChanges = sqliteTable("session_changes", {
  id: integer("id").primaryKey(),
  count: integer("count").notNull().default(0),
});

/** Attempts counted for rate limits: one row per attempt, keyed by what is limited (e.g. `sign-in:account:<email>`). */
export const rateLimitHits = sqliteTable(
  "rate_limit_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    hitAt: integer("hit_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("rate_limit_hits_key_idx").on(t.key, t.hitAt), index("rate_limit_hits_hit_at_idx").on(t.hitAt)],
);
