import { useEffect } from "react";

import { readPageAgain } from "./read-page-again";
import type { RoomLink } from "./use-consultation-room";

/**
 * Reads the page again from the server when its consultation's room says a step happened that moves no
 * status (a dispute opened, answered or decided; the payment released or refunded; the rating): the
 * page's money and dispute panels then show it without a reload, as its timeline does.
 */
export function useReadAgainOnTimeline(room: RoomLink) {
  useEffect(
    () =>
      room.listen({
        onEvent(event) {
          if (event.type === "timeline") readPageAgain();
        },
        onOpen() {},
        onClose() {},
      }),
    [room],
  );
}
