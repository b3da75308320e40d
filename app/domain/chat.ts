// The consultation chat's rules: who may send, when, and what a text may be. One rule, followed by the
// room (for sockets and for the server's own calls) and by the upload of a chat photo before it is
// stored.
import type { ChatRefusal, ChatSenderRole } from "./chat-message";
import { MAX_CHAT_MESSAGE_CHARS } from "./constants";
import { takesPartIn } from "./consultation-access";
import type { ConsultationStatus } from "./consultation-status";
import { cleanText } from "./text-hygiene";

/** A chat page opens with this many of the newest messages; "Show earlier messages" adds as many again. */
export const CHAT_PAGE_MESSAGES = 50;
/** The most messages one page shows (a limit on one read, far beyond any consultation's chat). */
const MOST_CHAT_MESSAGES_SHOWN = 5_000;
/** The page address's parameter: how many of the newest messages to show. */
export const CHAT_SHOWN_PARAM = "messages";

/** How many of the newest messages a page shows: `?messages=` read leniently, in whole pages, within the limit. */
export function shownChatMessages(params: URLSearchParams): number {
  const raw = params.get(CHAT_SHOWN_PARAM) ?? "";
  const asked = /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  const pages = Math.max(1, Math.ceil(asked / CHAT_PAGE_MESSAGES));
  return Math.min(pages * CHAT_PAGE_MESSAGES, MOST_CHAT_MESSAGES_SHOWN);
}

/** The `intent` the chat form posts to its consultation page (without JavaScript). */
export const CHAT_INTENTS = { send: "send-message" } as const;

/** What the chat's photo upload answers a page with JavaScript: null once the photo is sent, else why not, in the sender's language. */
export interface ChatImageAnswer {
  error: string | null;
}

interface ChatParties {
  status: ConsultationStatus;
  patientId: string;
  doctorId: string | null;
}

/** A consultation has a chat once it is paid for: open while in progress, to read once completed. */
export function hasChat(status: ConsultationStatus): boolean {
  return status === "in_progress" || status === "completed";
}

/** The sender's role in this consultation, or null for anyone else. */
export function senderRoleIn(userId: string, consultation: Pick<ChatParties, "patientId" | "doctorId">): ChatSenderRole | null {
  if (!takesPartIn(userId, consultation)) return null;
  return userId === consultation.patientId ? "patient" : "doctor";
}

/** Why `senderId` may not send a message here now, or null: only its two people, only while in progress. */
export function chatSendRefusal(consultation: ChatParties, senderId: string): ChatRefusal | null {
  if (!senderRoleIn(senderId, consultation)) return "not_participant";
  return consultation.status === "in_progress" ? null : "not_in_progress";
}

/** A typed text as it is stored (hidden characters out, ends trimmed), or why it cannot be sent. */
export function chatTextOf(typed: string): { ok: true; text: string } | { ok: false; refusal: "empty" | "too_long" } {
  const text = cleanText(typed).trim();
  if (text === "") return { ok: false, refusal: "empty" };
  // Characters as a person counts them: one per letter, emoji included.
  return [...text].length > MAX_CHAT_MESSAGE_CHARS ? { ok: false, refusal: "too_long" } : { ok: true, text };
}
