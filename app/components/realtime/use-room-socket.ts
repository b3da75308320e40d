import ReconnectingWebSocket from "partysocket/ws";
import { startTransition, useEffect, useRef } from "react";

import { ROOM_CLOSE_CODES, type ROOMS } from "~/realtime/protocol";

import { markSessionEnded } from "./session-ended";

interface RoomSocketOptions {
  party: (typeof ROOMS)[keyof typeof ROOMS]["party"];
  room: string;
  enabled?: boolean;
  /** Each message as it came; callers read it with the protocol's `parseMessage`. */
  onMessage: (data: unknown) => void;
  /** The socket opened (again); pages that also speak in the room keep it. */
  onOpen?: (socket: ReconnectingWebSocket) => void;
  onClose?: () => void;
  /** The room closed the socket for good because the person no longer takes part in it. */
  onNoLongerParticipant?: () => void;
}

/** Close codes after which reconnecting would only be refused again. */
const FINAL_CLOSE_CODES: number[] = [ROOM_CLOSE_CODES.sessionEnded, ROOM_CLOSE_CODES.noLongerParticipant];

/**
 * A room socket (partysocket's ReconnectingWebSocket to /parties/<party>/<room>: the room's guard gives
 * each socket its connection id, so PartySocket's own addressing is not needed) that reconnects by
 * itself after a network loss and catches up, except when the room closes it for good: the session has
 * ended (the page says so), or the person no longer takes part. One socket per party and room while
 * enabled; the latest handlers always answer.
 *
 * A page that was away when that happened is refused at the door on reconnecting, which a browser sees
 * only as a failed connection; so after an attempt that never opened it asks the same guard with a
 * plain request, which answers with why (401: the session ended; 403: no longer taking part).
 */
export function useRoomSocket({ party, room, enabled = true, ...handlers }: RoomSocketOptions) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    // The page's own scheme: a secure page opens a secure socket, whatever its host is called.
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const path = `/parties/${party}/${encodeURIComponent(room)}`;
    const socket = new ReconnectingWebSocket(`${scheme}://${window.location.host}${path}`, undefined, {
      shouldReconnectOnClose: (event) => !FINAL_CLOSE_CODES.includes(event.code),
    });
    let openedSinceLastClose = false;
    let over = false;
    /** The room is done with this page, for the reason `code` gives: no more reconnecting. */
    const endFor = (code: number) => {
      if (over) return;
      over = true;
      socket.close();
      if (code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      if (code === ROOM_CLOSE_CODES.noLongerParticipant) latest.current.onNoLongerParticipant?.();
    };
    const askWhyRefused = async () => {
      const answer = await fetch(path, { cache: "no-store" }).catch(() => null);
      if (answer?.status === 401) endFor(ROOM_CLOSE_CODES.sessionEnded);
      if (answer?.status === 403) endFor(ROOM_CLOSE_CODES.noLongerParticipant);
    };
    socket.addEventListener("open", () => {
      openedSinceLastClose = true;
      startTransition(() => latest.current.onOpen?.(socket));
    });
    // What the room says is news, not a keystroke: a transition, so a part of the page still hydrating
    // (a lazy panel on a slow phone) waits for it instead of being thrown away and drawn again (React #421).
    socket.addEventListener("message", (message: MessageEvent) => startTransition(() => latest.current.onMessage(message.data)));
    socket.addEventListener("close", (event: CloseEvent) => {
      startTransition(() => latest.current.onClose?.());
      if (FINAL_CLOSE_CODES.includes(event.code)) return endFor(event.code);
      const neverOpened = !openedSinceLastClose;
      openedSinceLastClose = false;
      if (neverOpened && !over) void askWhyRefused();
    });
    return () => {
      over = true;
      socket.close();
    };
  }, [party, room, enabled]);
}
