import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

import type { RoomLink } from "./use-consultation-room";

/**
 * Reads the page again from the server when its consultation's room says a step happened that moves no
 * status (a dispute opened, answered or decided; the payment released or refunded; the rating): the
 * page's money and dispute panels then show it without a reload, as its timeline does.
 */
export function useReadAgainOnTimeline(room: RoomLink) {
  // The same function for the page's whole life (react-router keeps it per router).
  const { revalidate } = useRevalidator();
  useEffect(
    () =>
      room.listen({
        onEvent(event) {
          if (event.type === "timeline") void revalidate();
        },
        onOpen() {},
        onClose() {},
      }),
    [room, revalidate],
  );
}
