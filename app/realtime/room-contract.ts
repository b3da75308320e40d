// What the Worker and the rooms agree on outside the sockets: whose socket a room is handed (the
// identity the Worker's guard attaches as headers), and the chat message the server posts on
// someone's behalf with its outcome. Imports only the protocol and the domain, so the rooms, the
// guard and the server's calls into the rooms all depend on it and never on each other.
import type { ChatMessageKind, ChatRefusal } from "~/domain/chat-message";
import type { ChatMessage } from "~/realtime/protocol";

/** Whose socket it is, as the guard found at the door. */
export interface RoomIdentity {
  sessionId: string;
  userId: string;
  /** When the session ends if nothing happens (ms since the epoch); the room checks again then. */
  endsAt: number;
}

const IDENTITY_HEADERS = { sessionId: "X-Qoda-Session-Id", userId: "X-Qoda-User-Id", endsAt: "X-Qoda-Session-Ends-At" } as const;

/** Sets the identity on headers passed on to a room, replacing whatever the client sent. */
export function setRoomIdentity(headers: Headers, identity: RoomIdentity): void {
  headers.set(IDENTITY_HEADERS.sessionId, identity.sessionId);
  headers.set(IDENTITY_HEADERS.userId, identity.userId);
  headers.set(IDENTITY_HEADERS.endsAt, String(identity.endsAt));
}

/** Inside a room: whose socket this is, as the guard said. */
export function roomIdentityOf(request: Request): RoomIdentity | null {
  const sessionId = request.headers.get(IDENTITY_HEADERS.sessionId);
  const userId = request.headers.get(IDENTITY_HEADERS.userId);
  const endsAt = Number(request.headers.get(IDENTITY_HEADERS.endsAt));
  return sessionId && userId && Number.isFinite(endsAt) ? { sessionId, userId, endsAt } : null;
}

/** A message the server asks the room to take on someone's behalf (they were checked at the door). */
export interface ChatDraft {
  senderId: string;
  kind: ChatMessageKind;
  /** The typed words of a text ("" for a photo). */
  text: string;
  /** The stored photo of an image message. */
  fileId: string | null;
}

export type ChatPostOutcome = { ok: true; message: ChatMessage } | { ok: false; reason: ChatRefusal | "not_found" };
