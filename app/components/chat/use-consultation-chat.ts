import { useCallback, useEffect, useMemo, useRef, useState } from "react";

import type { RoomLink } from "~/components/realtime/use-consultation-room";
import type { ChatImageAnswer } from "~/domain/chat";
import type { ChatMessage } from "~/realtime/protocol";

import type { ChatTexts } from "./chat-texts";

/** A text not confirmed by the room within this long is reported as not sent (the words stay in the box). */
const SEND_TIMEOUT_MS = 10_000;

export interface LiveChat {
  messages: ChatMessage[];
  /** Texts typed while the connection was down, oldest first: sent in order when it is back (refused: why). */
  pending: Array<{ clientId: string; text: string; refusal?: string }>;
  /** The room has sent its history since this page opened (so an earlier loading failure is over). */
  synced: boolean;
  /** Resolves with null once the room has the text, or with what went wrong (in the reader's language; too long, say). */
  sendText(text: string): Promise<string | null>;
  /** Resolves with null once the photo is stored and sent, or with what went wrong. */
  sendImage(file: File): Promise<string | null>;
}

/** `incoming` added to `known` (each message once), oldest first. */
function merged(known: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byId = new Map(known.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The chat over the page's one room socket: history on every (re)connection, then each message as it
 * is sent; after a reconnection the page asks for what it missed since its last message. Texts go over
 * the socket, photos are downscaled and uploaded, then reach both pages through the room.
 */
export function useConsultationChat(consultationId: string, room: RoomLink, initial: ChatMessage[], texts: ChatTexts): LiveChat {
  const [messages, setMessages] = useState(initial);
  const [synced, setSynced] = useState(false);
  const lastId = useRef(0);
  useEffect(() => {
    lastId.current = messages.at(-1)?.id ?? 0;
  }, [messages]);
  const waiting = useRef(new Map<string, (error: string | null) => void>());
  const [pending, setPending] = useState<LiveChat["pending"]>([]);
  const outbox = useRef(pending);
  useEffect(() => {
    outbox.current = pending;
  }, [pending]);
  // Offline texts already handed to the current socket (sent again only over a new one).
  const handed = useRef(new Set<string>());
  const { sendFailed, refusals } = texts;
  const settle = useCallback((clientId: string, error: string | null) => {
    // A refused offline text stays on the page with the reason, so its words are not lost.
    setPending((texts) =>
      error === null
        ? texts.filter((text) => text.clientId !== clientId)
        : texts.map((text) => (text.clientId === clientId ? { ...text, refusal: error } : text)),
    );
    waiting.current.get(clientId)?.(error);
    waiting.current.delete(clientId);
  }, []);

  // Fresh data from the server (after a form post, say) joins what the socket brought.
  const [fromServer, setFromServer] = useState(initial);
  if (fromServer !== initial) {
    setFromServer(initial);
    setMessages((known) => merged(known, initial));
  }

  useEffect(() => {
    const catchUp = () => {
      room.send({ type: "catch_up", afterId: lastId.current });
      // Then what was typed offline, in order; the room's echo of each clientId confirms it.
      for (const { clientId, text } of outbox.current)
        if (!handed.current.has(clientId) && room.send({ type: "send", clientId, text })) handed.current.add(clientId);
    };
    const stop = room.listen({
      onEvent(event) {
        if (event.type === "history") {
          setMessages((known) => merged(known, event.messages));
          setSynced(true);
        } else if (event.type === "message") {
          setMessages((known) => merged(known, [event.message]));
          if (event.clientId) settle(event.clientId, null);
        } else if (event.type === "send_refused") settle(event.clientId, refusals[event.reason]);
      },
      onOpen: catchUp,
      // A text in flight when the connection drops may or may not have arrived: the sender is told to check.
      onClose: () => {
        handed.current.clear();
        [...waiting.current.keys()].forEach((clientId) => settle(clientId, sendFailed));
      },
    });
    // The network back without the socket having dropped: the offline texts go now.
    window.addEventListener("online", catchUp);
    // The socket may have opened (and sent its history) before this code loaded.
    if (room.isOpen()) catchUp();
    return () => {
      stop();
      window.removeEventListener("online", catchUp);
    };
  }, [room, sendFailed, refusals, settle]);

  const sendText = useCallback(
    (text: string) => {
      // The room decides what may be sent (empty, too long, chat closed) and says why it refused.
      const clientId = crypto.randomUUID();
      if (!room.isOpen()) {
        setPending((texts) => [...texts, { clientId, text }]);
        return Promise.resolve(null);
      }
      return new Promise<string | null>((resolve) => {
        const timer = window.setTimeout(() => settle(clientId, sendFailed), SEND_TIMEOUT_MS);
        waiting.current.set(clientId, (error) => {
          window.clearTimeout(timer);
          resolve(error);
        });
        if (!room.send({ type: "send", clientId, text })) settle(clientId, sendFailed);
      });
    },
    [room, sendFailed, settle],
  );

  const sendImage = useCallback(
    async (file: File) => {
      try {
        // Loaded with the first photo: most chat pages never send one (a lost connection fails the send).
        const { preparePhoto } = await import("~/components/request-wizard/downscale");
        const form = new FormData();
        form.append("image", (await preparePhoto(file)).photo, file.name);
        const response = await fetch(`/consultation/${consultationId}/chat-image`, { method: "POST", body: form });
        const answer = (await response.json()) as ChatImageAnswer;
        return response.ok ? null : (answer.error ?? sendFailed);
      } catch {
        return sendFailed;
      }
    },
    [consultationId, sendFailed],
  );

  return useMemo(() => ({ messages, pending, synced, sendText, sendImage }), [messages, pending, synced, sendText, sendImage]);
}
