// Telegram notifications (docs/decisions/0035): a person's linked chat, the one-time tokens that link
// it, the outbox a sender works through, and (development only) what the Bot API stand-in received.
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

import { users } from "./accounts.ts";
import { createdAt, id, isBoolean, oneOf } from "./columns.ts";

/** One chat per person and one person per chat. */
export const telegramLinks = sqliteTable(
  "telegram_links",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    chatId: text("chat_id").notNull().unique(),
    linkedAt: createdAt(),
    /** Doctors only, by their choice: every new request in the queue. */
    wantsNewRequests: integer("wants_new_requests", { mode: "boolean" }).notNull().default(false),
  },
  () => [check("telegram_links_wants_new_requests_bool", isBoolean("wants_new_requests"))],
);

export const telegramLinkTokens = sqliteTable(
  "telegram_link_tokens",
  {
    /** SHA-256 of the token in the deep link. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("telegram_link_tokens_user_idx").on(t.userId), index("telegram_link_tokens_expires_idx").on(t.expiresAt)],
);

/** queued / sending / sent / failed as mail; dropped: the chat was unlinked (or blocked the bot) first. */
export const TELEGRAM_STATUSES = ["queued", "sending", "sent", "failed", "dropped"] as const;

/** A message is written in its cause's batch (only for a linked person) and worded when it is sent. */
export const telegramOutbox = sqliteTable(
  "telegram_outbox",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    consultationId: text("consultation_id"),
    /** The page it leads to, a path on the site. */
    link: text("link").notNull(),
    status: text("status", { enum: TELEGRAM_STATUSES }).notNull().default("queued"),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" })
      .notNull()
      .$defaultFn(() => new Date()),
    lastError: text("last_error"),
  },
  (t) => [
    index("telegram_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("telegram_outbox_recent_idx").on(t.userId, t.consultationId, t.kind, t.createdAt),
    check("telegram_outbox_status_valid", oneOf("status", TELEGRAM_STATUSES)),
  ],
);

/** Development and tests only: what the Bot API stand-in was sent, and the chats that blocked the bot. */
export const telegramStandInMessages = sqliteTable("telegram_stand_in_messages", {
  id: id(),
  chatId: text("chat_id").notNull(),
  text: text("text").notNull(),
  createdAt: createdAt(),
});

export const telegramStandInBlockedChats = sqliteTable("telegram_stand_in_blocked_chats", {
  chatId: text("chat_id").primaryKey(),
});
