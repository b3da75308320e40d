import { useEffect } from "react";

import { ROOM_CLOSE_CODES, ROOMS } from "~/realtime/rooms";

import { readPageAgain } from "./read-page-again";

/** How long a dropped socket waits before it opens again. */
const REOPEN_AFTER_MS = 5_000;
/** Opens in a row that never got through (the room refuses this session, say) before the page stops trying. */
const MAX_FAILED_OPENS = 3;
const FINAL_CLOSE_CODES: number[] = [ROOM_CLOSE_CODES.sessionEnded, ROOM_CLOSE_CODES.noLongerParticipant];

/** The protocol's `timeline` event (realtime/protocol), read without its schemas: only its type matters here. */
const isTimelineNews = (data: unknown) => {
  try {
    return typeof data === "string" && (JSON.parse(data) as { type?: unknown }).type === "timeline";
  } catch {
    return false;
  }
};

/**
 * The rating page's ear on its consultation's room: it reads the page again when the room says a step
 * happened (the doctor's answer to a dispute, an admin's decision), and when it comes back after a drop,
 * since it heard nothing meanwhile. A bare socket, loaded after hydration: the page has no chat, and the
 * room's full link (partysocket, useRoomSocket) would take it over its script budget (docs/decisions/0048).
 */
export function TimelineNews({ consultationId }: { consultationId: string }) {
  useEffect(() => {
    let socket: WebSocket | null = null;
    let reopen: number | undefined;
    let over = false;
    let failedOpens = 0;
    const open = (again: boolean) => {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(
        `${scheme}://${window.location.host}/parties/${ROOMS.consultation.party}/${encodeURIComponent(consultationId)}`,
      );
      let opened = false;
      socket.addEventListener("open", () => {
        opened = true;
        failedOpens = 0;
        if (again) readPageAgain();
      });
      socket.addEventListener("message", (message: MessageEvent) => isTimelineNews(message.data) && readPageAgain());
      socket.addEventListener("close", (event: CloseEvent) => {
        if (!opened) failedOpens += 1;
        if (over || FINAL_CLOSE_CODES.includes(event.code) || failedOpens >= MAX_FAILED_OPENS) return;
        reopen = window.setTimeout(() => open(true), REOPEN_AFTER_MS);
      });
    };
    open(false);
    return () => {
      over = true;
      window.clearTimeout(reopen);
      socket?.close();
    };
  }, [consultationId]);
  return null;
}
