import { startTransition, useEffect, useState } from "react";

/** The current time, renewed every `everyMs`: for "waiting 12 min" labels that keep up by themselves. */
export function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // A transition, so a tick never lands on a part of the page still hydrating (React #421).
    const timer = window.setInterval(() => startTransition(() => setNow(Date.now())), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
