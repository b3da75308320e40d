// A consultation's timeline, as the server worded it (the page ships none of its texts): an ordered list
// of what happened, each with its time, then what is to come; the latest step marked as the current one.
// It reads itself again from the server whenever the consultation's room says something moved.
import { type ReactNode, useEffect, useId, useState } from "react";

import type { RoomLink } from "~/components/realtime/use-consultation-room";
import type { WordedTimeline } from "~/domain/views/worded-timeline";

/** Where the timeline is read again (a resource route of the patient's own). */
const timelinePath = (consultationId: string) => `/patient/consultation/${consultationId}/timeline`;

export function ConsultationTimeline({
  heading,
  timeline,
  room,
  listClassName = "",
  pageReadsAgain = false,
  children,
}: {
  heading: string;
  timeline: WordedTimeline;
  room: RoomLink;
  /** The page reads itself again on the room's timeline news (use-read-again-on-timeline): its new data brings this one too. */
  pageReadsAgain?: boolean;
  /** The list's own look besides the steps' (the dashboard's is smaller, and shows only the one step next). */
  listClassName?: string;
  children?: ReactNode;
}) {
  const shown = useLiveTimeline(timeline, room, pageReadsAgain);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h2 id={headingId} className="font-bold">
        {heading}
      </h2>
      {children}
      <ol className={`steps steps-vertical [&>[aria-current]]:font-semibold ${listClassName}`}>
        {shown.steps.map((step, index) => (
          <li
            key={index}
            className={`step ${step.state === "next" ? "text-base-content/70" : "step-primary"}`}
            aria-current={step.state === "current" ? "step" : undefined}
            data-state={step.state}
          >
            <span className="grid text-start">
              {step.label}
              {step.time ? (
                <time dateTime={step.dateTime!} className="text-xs">
                  {step.time}
                </time>
              ) : (
                <span className="sr-only">{shown.toCome}</span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The timeline as last read: the page's, until the room says something moved (a status other than the
 * one it was read at, or a step of the timeline's own) or its socket comes back after a loss (it may have
 * missed news); then read again from the server, the latest answer kept. New page data starts it over.
 */
function useLiveTimeline(initial: WordedTimeline, room: RoomLink, pageReadsAgain: boolean): WordedTimeline {
  const [fetched, setFetched] = useState<[over: WordedTimeline, timeline: WordedTimeline]>();
  const shown = fetched?.[0] === initial ? fetched[1] : initial;
  useEffect(() => {
    let listening = true;
    let asked = 0;
    let openedBefore = room.isOpen();
    const readAgain = () => {
      const ask = ++asked;
      fetch(timelinePath(initial.consultationId))
        .then((response): Promise<WordedTimeline> => response.json())
        .then(
          (timeline) => listening && ask === asked && setFetched([initial, timeline]),
          // Not a timeline (the session ended, say): kept as it is until the next news, or a reload.
          () => undefined,
        );
    };
    const stop = room.listen({
      onEvent(event) {
        if ((event.type === "timeline" && !pageReadsAgain) || (event.type === "status" && event.status !== shown.status)) readAgain();
      },
      onOpen() {
        if (openedBefore) readAgain();
        openedBefore = true;
      },
      onClose() {},
    });
    return () => {
      listening = false;
      stop();
    };
  }, [room, initial, shown.status, pageReadsAgain]);
  return shown;
}
