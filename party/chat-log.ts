// A consultation's chat, kept in its room's own SQLite storage: the room is the consultation's record
// (kept at least a year, as the terms promise). The autoincrement id orders the messages and is the
// cursor a reconnecting page catches up from. A text carries its page's own id (client_id), so a text
// sent again (typed offline, its echo lost to a dropped connection) is stored once.
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
  client_id: string | null;
  created_at: number;
};

export interface NewChatMessage {
  senderId: string;
  senderRole: ChatSenderRole;
  kind: ChatMessageKind;
  text: string;
  fileId: string | null;
  /** The sender's page's id for the text (a UUID), if it came over a socket. */
  clientId?: string | null;
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
    // Rooms made before texts carried their page's id gain the column (SQLite adds it in place).
    const columns = this.sql.exec<{ name: string }>("PRAGMA table_info(chat_messages)").toArray();
    if (!columns.some((column) => column.name === "client_id")) this.sql.exec("ALTER TABLE chat_messages ADD COLUMN client_id TEXT");
    this.sql.exec("CREATE UNIQUE INDEX IF NOT EXISTS chat_messages_client_id ON chat_messages (sender_id, client_id)");
  }

  /** The text `senderId` already sent with this page id, if any. */
  sentBefore(senderId: string, clientId: string): ChatMessage | null {
    const [row] = this.sql
      .exec<MessageRow>("SELECT * FROM chat_messages WHERE sender_id = ? AND client_id = ?", senderId, clientId)
      .toArray();
    return row ? messageOf(row) : null;
  }

  append(message: NewChatMessage, at: Date): ChatMessage {
    const row = this.sql
      .exec<MessageRow>(
        "INSERT INTO chat_messages (sender_id, sender_role, kind, text, file_id, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
        message.senderId,
        message.senderRole,
        message.kind,
        message.text,
        message.fileId,
        message.clientId ?? null,
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

  /** Every message, oldest first (the patient's copy of their data). */
  all(): ChatMessage[] {
    return this.after(0);
  }

  /** Removes every message (the record's retention ended); how many there were. */
  forget(): number {
    return this.sql.exec("DELETE FROM chat_messages").rowsWritten;
  }
}
