import { useEffect } from "react";

import type { RoomLink } from "~/components/realtime/use-consultation-room";
import type { ChatMessage } from "~/realtime/protocol";

import type { ChatTexts } from "./chat-texts";
import { type LiveChat, useConsultationChat } from "./use-consultation-chat";

/**
 * The chat's live half, loaded once the page runs script: it draws nothing itself and hands the panel
 * the live messages and the ways to send (the panel stays as the server drew it until then).
 */
export function LiveChatLink({
  consultationId,
  room,
  initial,
  texts,
  onChange,
}: {
  consultationId: string;
  room: RoomLink;
  initial: ChatMessage[];
  texts: ChatTexts;
  onChange: (chat: LiveChat | null) => void;
}) {
  const chat = useConsultationChat(consultationId, room, initial, texts);
  useEffect(() => onChange(chat), [chat, onChange]);
  useEffect(() => () => onChange(null), [onChange]);
  return null;
}
