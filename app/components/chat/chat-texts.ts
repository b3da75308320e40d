import type { ChatRefusal } from "~/domain/chat-message";

/**
 * The chat's words, translated by the server for the page that shows the chat (app/server/chat.server.ts),
 * so that no other page ships them.
 */
export interface ChatTexts {
  title: string;
  empty: string;
  you: string;
  /** How the other person is named above their messages. */
  other: string;
  photoFromYou: string;
  photoFromOther: string;
  message: string;
  photo: string;
  photoHint: string;
  /** Said where a keyboard is likely: Enter sends, Shift+Enter starts a new line. */
  enterHint: string;
  /** The link to a page with earlier messages. */
  earlier: string;
  send: string;
  sending: string;
  ended: string;
  errorTitle: string;
  loadFailed: string;
  sendFailed: string;
  /** Under a text typed offline until the room confirms it. */
  pending: string;
  refusals: Record<ChatRefusal, string>;
}
