// A consultation's chat, kept in its room's own SQLite storage: the room is the consultation's record
// (kept at least a year, as the terms promise). The autoincrement id orders the messages and is the
// cursor a reconnecting page catches up from.
import { CHAT_MESSAGE_KINDS, CHAT_SENDER_ROLES, type ChatMessageKind, type ChatSenderRole } from "~/domain/chat-message";
import type { ChatMessage } from "~/realtime/protocol";

const oneOf = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

type MessageRow = {
  id: number;
  sender_id: string;
  sender_role: ChatSenderRole;
  kind: ChatMessageKind;
  text: string;
  file_id: string | null;
  created_at: number;
};

export interface NewChatMessage {
  senderId: string;
  senderRole: ChatSenderRole;
  kind: ChatMessageKind;
  text: string;
  fileId: string | null;
}

/** A stored message as both pages receive it (the sender by role; a photo by its file). */
const messageOf = (row: MessageRow): ChatMessage => ({
  id: row.id,
  senderRole: row.sender_role,
  text: row.text,
  fileId: row.file_id,
  sentAt: row.created_at,
});

export class ChatLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Run when the room starts: the table exists from then on. */
  create(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS chat_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      sender_id TEXT NOT NULL,
      sender_role TEXT NOT NULL CHECK (sender_role IN (${oneOf(CHAT_SENDER_ROLES)})),
      kind TEXT NOT NULL CHECK (kind IN (${oneOf(CHAT_MESSAGE_KINDS)})),
      text TEXT NOT NULL DEFAULT '',
      file_id TEXT,
      created_at INTEGER NOT NULL,
      CHECK ((kind = 'text' AND file_id IS NULL AND text <> '') OR (kind = 'image' AND file_id IS NOT NULL))
    )`);
  }

  append(message: NewChatMessage, at: Date): ChatMessage {
    const row = this.sql
      .exec<MessageRow>(
        "INSERT INTO chat_messages (sender_id, sender_role, kind, text, file_id, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
        message.senderId,
        message.senderRole,
        message.kind,
        message.text,
        message.fileId,
        at.getTime(),
      )
      .one();
    return messageOf(row);
  }

  /** The newest `count` messages, oldest first, and whether earlier ones exist. */
  latest(count: number): { messages: ChatMessage[]; hasEarlier: boolean } {
    const newestFirst = this.sql.exec<MessageRow>("SELECT * FROM chat_messages ORDER BY id DESC LIMIT ?", count + 1).toArray();
    return { messages: newestFirst.slice(0, count).reverse().map(messageOf), hasEarlier: newestFirst.length > count };
  }

  /** The messages after `afterId` (0: all), oldest first. */
  after(afterId: number): ChatMessage[] {
    return this.sql.exec<MessageRow>("SELECT * FROM chat_messages WHERE id > ? ORDER BY id", afterId).toArray().map(messageOf);
  }
}
