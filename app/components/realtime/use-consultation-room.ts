import { useLocation, useNavigate } from "@remix-run/react";
import type ReconnectingWebSocket from "partysocket/ws";
import { useCallback, useMemo, useRef, useState } from "react";

import type { ChatSenderRole } from "~/domain/chat-message";
import type { ConsultationStatus, DeclineReason } from "~/domain/consultation-status";
import { ConsultationRoomEvent, type ConsultationRoomInbound, parseMessage, ROOMS, type STATUS_REASONS } from "~/realtime/protocol";

import { useRoomSocket } from "./use-room-socket";

interface Heard {
  status: ConsultationStatus;
  reason?: (typeof STATUS_REASONS)[number];
  decline?: { reason: DeclineReason; note: string | null };
}

/** Who hears the room's other events (the chat), and each time the socket opens or drops. */
interface RoomListener {
  onEvent(event: ConsultationRoomEvent): void;
  onOpen(): void;
  onClose(): void;
}

/** The page's one socket to its consultation room, for the parts of the page that talk in it (the chat). */
export interface RoomLink {
  /** Sends `event` now; false when the socket is not open. */
  send(event: ConsultationRoomInbound): boolean;
  isOpen(): boolean;
  /** Starts hearing the room; returns how to stop. */
  listen(listener: RoomListener): () => void;
}

export interface ConsultationRoomState extends Heard {
  /** Who of the two is connected, as the room last said (null until it has). */
  online: ChatSenderRole[] | null;
  room: RoomLink;
}

/**
 * A consultation page's one socket to the consultation's room: the status as the room reports it, live
 * (and why it moved, when the page should say so), who is connected, and a link for the chat. The room
 * sends the current status on every (re)connection, so a page that lost its connection catches up by
 * itself.
 */
export function useConsultationRoom(consultationId: string, initial: ConsultationStatus, { enabled = true } = {}): ConsultationRoomState {
  // What the room last said, about which consultation and on top of which server status: another
  // consultation, or fresh data from the server, starts again from what the server said.
  const [heard, setHeard] = useState<(Heard & { consultationId: string; initial: ConsultationStatus }) | null>(null);
  const [online, setOnline] = useState<ChatSenderRole[] | null>(null);
  const listeners = useRef(new Set<RoomListener>());
  const socket = useRef<ReconnectingWebSocket | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  useRoomSocket({
    party: ROOMS.consultation.party,
    room: consultationId,
    enabled,
    onMessage(data) {
      const event = parseMessage(ConsultationRoomEvent, data);
      if (!event) return;
      if (event.type === "status")
        setHeard({ consultationId, initial, status: event.status, reason: event.reason, decline: event.decline });
      if (event.type === "presence") setOnline(event.online);
      for (const listener of listeners.current) listener.onEvent(event);
    },
    onOpen(opened) {
      socket.current = opened;
      listeners.current.forEach((listener) => listener.onOpen());
    },
    onClose() {
      setOnline(null);
      listeners.current.forEach((listener) => listener.onClose());
    },
    // A doctor whose accepted request went back to the queue: the page loads again what it shows,
    // forgetting its own accept's answer too (a revalidation would keep it, and with it "Awaiting payment").
    onNoLongerParticipant: () => navigate(`${location.pathname}${location.search}`, { replace: true, preventScrollReset: true }),
  });
  const listen = useCallback((listener: RoomListener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  const room = useMemo<RoomLink>(() => {
    // Offline, a socket may still look open: the chat then keeps its texts as pending.
    const isOpen = () => navigator.onLine && socket.current?.readyState === WebSocket.OPEN;
    return { isOpen, send: (event) => isOpen() && (socket.current!.send(JSON.stringify(event)), true), listen };
  }, [listen]);
  const current: Heard = !heard || heard.consultationId !== consultationId || heard.initial !== initial ? { status: initial } : heard;
  return { status: current.status, reason: current.reason, decline: current.decline, online: enabled ? online : null, room };
}
