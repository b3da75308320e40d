import { useEffect, useState } from "react";

/** The current time, renewed every `everyMs`: for "waiting 12 min" labels that keep up by themselves. */
export function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
